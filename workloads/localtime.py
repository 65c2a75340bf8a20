"""Pages show times on the organisation's clock: each request of a member runs in its organisation's
time zone, the one its schedules and periods use, so "queued 22:30" on a run page is the time the
people who queued it saw, and the day next to it is the day of its period and its prices."""

from __future__ import annotations

import zoneinfo

from django.http import HttpRequest, HttpResponse
from django.utils import timezone


class OrganisationTimeZone:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        membership = getattr(user, "membership", None) if user.is_authenticated else None
        if membership is None:
            return self.get_response(request)
        with timezone.override(zoneinfo.ZoneInfo(membership.organisation.timezone)):
            return self.get_response(request)
