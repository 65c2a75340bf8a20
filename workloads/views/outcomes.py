"""How a page answers what it was sent: a form page's data and its re-shown form, and a refused action's message."""

from contextlib import contextmanager

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render


def posted(request: HttpRequest) -> QueryDict | None:
    """A form page's data: what was POSTed, or None on GET and HEAD so that the form starts unbound."""
    return request.POST if request.method == "POST" else None


def form_response(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    """The page with context["form"]; 400 when that form was sent, since a sent form is shown again only when it
    failed validation."""
    return render(request, template, context, status=400 if context["form"].is_bound else 200)


@contextmanager
def refusal_shown(request: HttpRequest):
    """A ValidationError raised in the block ends the block and becomes the page's error message (its first
    message), so a refused action says why instead of answering 500."""
    try:
        yield
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
