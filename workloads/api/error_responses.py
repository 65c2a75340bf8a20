"""One error shape for the whole API: `{"detail": "<the first problem, in words>"}`.

- 400: bad input, whether caught by a schema (ninja's usual 422 is mapped to 400 here),
  by a service (django.core.exceptions.ValidationError), by pricing (PricingError), by
  Django's own request limits (too many files, too big a body: SuspiciousOperation), or by
  a malformed multipart body (MultiPartParserError).
- 401: no token, or a token we do not know. 403: a token whose user has no organisation, or whose
  role there does not allow the action (viewers change nothing; only admins add prices or delete workloads and runs).
- 404: no such object in the token user's organisation (another organisation's ids look the same).
- 409: the object is in the wrong state for the action (e.g. cancelling a finished run).
- 429: too many unknown tokens from the address; or a request that would take the organisation past a quota
  (workloads.organisations.quotas), with the quota, its use and its limit beside the detail. Not 403, which says the
  user may never do this: a quota's place comes back as runs finish, at midnight, or as documents are deleted.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, SuspiciousOperation, ValidationError
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from ninja import NinjaAPI, Schema
from ninja.errors import ValidationError as SchemaValidationError

from workloads.comparisons.pricing import PricingError
from workloads.organisations import quotas

# Where ninja says a value came from; the schema argument's own name adds nothing for a reader.
_SOURCES = {"body", "query", "path", "form", "file", "header", "cookie"}
_ARGUMENTS = {"payload", "filters"}


class ErrorOut(Schema):
    detail: str


class QuotaOut(ErrorOut):
    """A 429: the token check's has the detail alone; a quota's says which quota, and its numbers."""

    quota: str | None = None  # runs_queued, uploads_per_day or stored_bytes
    used: int | None = None  # before this request
    limit: int | None = None
    adding: int | None = None  # what this request would add: runs, one upload, or bytes


# Documented on every operation (401, 403 and 429 come from the token check).
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 429: ErrorOut}
CONFLICT = {409: ErrorOut}
# On the operations that queue a run or sweep or store an upload.
QUOTA = {429: QuotaOut}


# Django's multipart parser drops a part whose headers are not valid UTF-8 without a word, so an upload of a file
# named in Latin-1 arrives with no files at all: the answer says how a file part must look, not only that none came.
NO_FILES = ('files: no file arrived. Send each file as a multipart part with the header Content-Disposition: '
            'form-data; name="files"; filename="..." in UTF-8: a part whose headers are not valid UTF-8 (a file name '
            'in Latin-1, say) cannot be read, and is dropped')


def describe_schema_error(errors: list[dict]) -> str:
    """The first schema error as one line: `name: String should have at most 200 characters`."""
    if not errors:
        return "invalid request"
    first = errors[0]
    if tuple(first.get("loc", ())) == ("file", "files") and first.get("type") == "missing":
        return NO_FILES
    loc = [str(part) for part in first.get("loc", ())]
    where = [part for i, part in enumerate(loc) if not (i == 0 and part in _SOURCES) and part not in _ARGUMENTS]
    message = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    field = ".".join(where) or (loc[0] if loc else "")
    return f"{field}: {message}" if field else message


def install(api: NinjaAPI) -> None:
    def respond(request: HttpRequest, status: int, detail: str) -> HttpResponse:
        return api.create_response(request, {"detail": detail}, status=status)

    @api.exception_handler(SchemaValidationError)
    def schema_error(request, exc: SchemaValidationError):
        return respond(request, 400, describe_schema_error(exc.errors))

    @api.exception_handler(quotas.QuotaExceeded)
    def quota_exceeded(request, exc: quotas.QuotaExceeded):
        response = api.create_response(request, {"detail": exc.messages[0], **exc.as_json()}, status=429)
        if exc.retry_after_s is not None:
            response["Retry-After"] = str(exc.retry_after_s)
        return response

    @api.exception_handler(ValidationError)
    def service_error(request, exc: ValidationError):
        return respond(request, 400, exc.messages[0] if exc.messages else "invalid request")

    @api.exception_handler(PricingError)
    def pricing_error(request, exc: PricingError):
        return respond(request, 400, str(exc))

    @api.exception_handler(SuspiciousOperation)
    def request_limit(request, exc: SuspiciousOperation):
        # Django's TooManyFilesSent, RequestDataTooBig and friends: say what it was, not a bare 400 page.
        return respond(request, 400, str(exc) or "the request was refused")

    @api.exception_handler(MultiPartParserError)
    def malformed_multipart(request, exc: MultiPartParserError):
        # A multipart body without a usable boundary is the client's mistake, like any other bad input.
        return respond(request, 400, f"malformed multipart body: {exc}")

    @api.exception_handler(PermissionDenied)
    def permission_denied(request, exc: PermissionDenied):
        return respond(request, 403, str(exc) or "forbidden")
