"""The answers Django and django-ninja make themselves under /api/, in the API's one error shape.

A path that does not exist gets Django's HTML 404 page, and a method a path does not take gets
ninja's plain-text 405; a client of the API expects `{"detail": ...}` for every error.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

API_PREFIX = "/api/"


class ApiErrorsAsJson:
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
