"""Django's 400 page, saying which of the request limits a form passed: without it a member whose form was
refused read advice about uploading files."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "400.html", {"reason": _reason(exception)}, status=400)


def _reason(exception: Exception) -> str:
    if isinstance(exception, TooManyFilesSent):
        return (f"It sent too many files at once: an upload takes at most {settings.UPLOAD_MAX_FILES}. Send fewer, "
                "or put them in a ZIP archive.")
    if isinstance(exception, RequestDataTooBig):
        return (f"Its form fields held more than {filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)} of text. "
                "Documents go through the upload form, as files.")
    if isinstance(exception, TooManyFieldsSent):
        return f"It sent more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:,} form fields."
    return "It was malformed."
