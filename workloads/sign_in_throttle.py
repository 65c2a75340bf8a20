"""Failed sign-ins are throttled per username at an address, and unknown API tokens per address.

django-axes does the counting. It was chosen over Django's cache and a small middleware because it keeps its
counts in the database, which every gunicorn worker shares (the default cache is per process, and the embedded
default has no Redis); because it also guards the admin site's login; and because it is maintained. The login form
reaches it through its authentication backend; a token check reports its failures with `user_login_failed`.

A wrong password counts against its username and address together (AXES_LOCKOUT_PARAMETERS): after
LOGIN_FAILURE_LIMIT of them within LOGIN_LOCKOUT_MINUTES, that username is refused from that address, even with the
right password, until the failures are that old. The same username from another address, and every other username
from that address, still sign in: an office behind one NAT address is not locked out by one of its members (or by
someone guessing from inside it), and nobody can lock a user out from elsewhere by guessing at their name.

A token names no user, so unknown tokens count under TOKEN_USERNAME, a name no account can have, at their address:
after TOKEN_FAILURE_LIMIT of them, tokens from that address are refused, while its login form is not affected.
docs/deployment.md says how the defaults were chosen.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, JsonResponse
from django.shortcuts import render

from axes.handlers.proxy import AxesProxyHandler
from workloads.middleware import API_PREFIX

# Django's usernames hold letters, digits and @.+-_ only: no account has this one, so token failures are counted
# apart from every user's. Typed into the login form, it counts as an unknown token: no more than sending one.
TOKEN_USERNAME = "(unknown API token)"
TOKEN_CREDENTIALS = {"username": TOKEN_USERNAME}


def _is_token(credentials: dict | None) -> bool:
    return bool(credentials) and credentials.get("username") == TOKEN_USERNAME


def failure_limit(request: HttpRequest, credentials: dict | None) -> int:
    """AXES_FAILURE_LIMIT: tokens from an address have their own limit, the login form's usernames theirs."""
    return settings.TOKEN_FAILURE_LIMIT if _is_token(credentials) else settings.LOGIN_FAILURE_LIMIT


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
    """Whether tokens from the request's address are locked out (its token is then not even looked up)."""
    AxesProxyHandler.update_request(request)
    return not AxesProxyHandler.is_allowed(request, TOKEN_CREDENTIALS)


def token_failed(request: HttpRequest) -> None:
    """Count an unknown token against the request's address."""
    user_login_failed.send(sender=__name__, credentials=dict(TOKEN_CREDENTIALS), request=request)


def lockout_message(credentials: dict | None) -> str:
    minutes = settings.LOGIN_LOCKOUT_MINUTES
    if _is_token(credentials):
        return (f"too many unknown API tokens from this address: tokens from it are refused for {minutes} minutes "
                f"(after {settings.TOKEN_FAILURE_LIMIT} failures); signing in with a password is not affected")
    return (f"too many failed sign-ins for this username from this address: try again in {minutes} minutes "
            f"(after {settings.LOGIN_FAILURE_LIMIT} failures, it is refused here for {minutes} minutes)")


def lockout_response(request: HttpRequest, original_response, credentials: dict | None):
    """AXES_LOCKOUT_CALLABLE: a refused sign-in says why and for how long, as JSON under /api/ and as a page
    elsewhere, with 429 Too Many Requests."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": lockout_message(credentials)}, status=429)
    return render(request, "registration/locked_out.html", {"message": lockout_message(credentials)}, status=429)
