"""A page for a method a page does not take: Django's require_POST answers 405 with an empty body, which a
browser shows as a blank page (a bookmarked or shared link to a button's address, say)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from workloads.api.middleware import API_PREFIX


class MethodNotAllowedPage:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.path.startswith(API_PREFIX):
            return response
        response.content = render_to_string("405.html", {"allowed": response["Allow"]}, request=request)
        response["Content-Type"] = "text/html; charset=utf-8"
        return response
