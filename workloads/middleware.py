"""The app's middleware, in the order settings.MIDDLEWARE runs them.

OrganisationTimeZone  pages show times on the organisation's clock
ApiErrorsAsJson       every error under /api/ in the API's one JSON shape
MethodNotAllowedPage  a page, not a blank body, for a method a page does not take
PermissionsPolicy     browser features no page uses are turned off (runs first, with SecurityMiddleware)
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import timezone

from workloads.models import Membership

API_PREFIX = "/api/"


class OrganisationTimeZone:
    """Each request of a member runs in its organisation's time zone, the one its schedules and periods use, so
    "queued 22:30" on a run page is the time the people who queued it saw, and the day next to it is the day of its
    period and its prices."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(API_PREFIX):
            # The API signs in by token alone (workloads.api.auth) and writes its times in ISO 8601 with their
            # offset: a session cookie sent along is not read, which spares an API read the session's queries.
            return self.get_response(request)
        user = request.user
        membership = _membership(user) if user.is_authenticated else None
        if membership is None:
            return self.get_response(request)
        with timezone.override(zoneinfo.ZoneInfo(membership.organisation.timezone)):
            return self.get_response(request)


def _membership(user) -> Membership | None:
    """The user's membership with its organisation, kept on the user (`user.membership`) for the views, their role
    checks and the templates. MemberBackend reads them with the user; a user read another way costs one query."""
    if User.membership.is_cached(user):
        return getattr(user, "membership", None)  # None: the join found no membership
    membership = Membership.objects.select_related("organisation").filter(user=user).first()
    if membership is not None:
        user.membership = membership
    return membership


class ApiErrorsAsJson:
    """The answers Django and django-ninja make themselves under /api/, in the API's one error shape.

    A path that does not exist gets Django's HTML 404 page, and a method a path does not take gets
    ninja's plain-text 405; a client of the API expects `{"detail": ...}` for every error.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(API_PREFIX) or response.get("Content-Type", "").startswith("application/json"):
            return response
        if response.status_code == 404:
            return JsonResponse({"detail": f"no such API path: {request.path} (the schema is at /api/openapi.json)"},
                                status=404)
        if response.status_code == 405:
            allowed = response["Allow"]
            answer = JsonResponse({"detail": f"{request.method} is not allowed here: use {allowed}"}, status=405)
            answer["Allow"] = allowed
            return answer
        return response


class MethodNotAllowedPage:
    """A page for a method a page does not take: Django's require_POST answers 405 with an empty body, which a
    browser shows as a blank page (a bookmarked or shared link to a button's address, say)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.path.startswith(API_PREFIX):
            return response
        response.content = render_to_string("405.html", {"allowed": response["Allow"]}, request=request)
        response["Content-Type"] = "text/html; charset=utf-8"
        return response


class PermissionsPolicy:
    """Permissions-Policy on every response: the browser features no page uses (settings.PERMISSIONS_POLICY) are
    off, so a script that got in, or a page that frames ours, cannot ask for them."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = settings.PERMISSIONS_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", self.policy)
        return response
