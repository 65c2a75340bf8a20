"""Failed sign-ins are throttled per username and per address, for the login form and for API tokens alike.

django-axes does the counting. It was chosen over Django's cache and a small middleware because it keeps its
counts in the database, which every gunicorn worker shares (the default cache is per process, and the embedded
default has no Redis); because it also guards the admin site's login; and because it is maintained. The login form
reaches it through its authentication backend; a token check reports its failures with `user_login_failed`.

Each failure counts against its username and, separately, against its address: after LOGIN_FAILURE_LIMIT of
either within LOGIN_LOCKOUT_MINUTES, that username (from anywhere) and that address (whatever the username) are
refused, even with the right password or a valid token, until the failures are that old.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render

from axes.handlers.proxy import AxesProxyHandler
from workloads.middleware import API_PREFIX

# A token check's "credentials": a token names no user, so its failures count against the address alone.
TOKEN_CREDENTIALS = {"api_token": True}


def lockout_parameters(request_or_attempt, credentials: dict | None) -> list[str]:
    """AXES_LOCKOUT_PARAMETERS: a username and an address are each limited on their own (an attacker spreading
    guesses over addresses still meets the username's limit, and one guessing many usernames the address's)."""
    if credentials and credentials.get("api_token"):
        return ["ip_address"]
    return ["username", "ip_address"]


def client_address(request: HttpRequest) -> str:
    """AXES_CLIENT_IP_CALLABLE: the address of whoever sent the request. Behind TRUSTED_PROXIES reverse proxies
    (each appending to X-Forwarded-For) it is the entry that many from the right; a client can forge entries to
    the left of those, never these. With no proxy it is the socket's peer."""
    hops = settings.TRUSTED_PROXIES
    if hops:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR", "")


def token_refused(request: HttpRequest) -> bool:
    """Whether the request's address is locked out by failed sign-ins (its token is then not even looked up)."""
    AxesProxyHandler.update_request(request)
    return not AxesProxyHandler.is_allowed(request, TOKEN_CREDENTIALS)


def token_failed(request: HttpRequest) -> None:
    """Count an unknown token against the request's address."""
    user_login_failed.send(sender=__name__, credentials=dict(TOKEN_CREDENTIALS), request=request)


def lockout_message() -> str:
    minutes = settings.LOGIN_LOCKOUT_MINUTES
    return (f"too many failed sign-ins from this address or for this username: try again in {minutes} minutes "
            f"(after {settings.LOGIN_FAILURE_LIMIT} failures, sign-ins are refused for {minutes} minutes)")


def lockout_response(request: HttpRequest, original_response, credentials: dict | None):
    """AXES_LOCKOUT_CALLABLE: a refused sign-in says why and for how long, as JSON under /api/ and as a page
    elsewhere, with 429 Too Many Requests."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": lockout_message()}, status=429)
    return render(request, "registration/locked_out.html", {"message": lockout_message()}, status=429)
