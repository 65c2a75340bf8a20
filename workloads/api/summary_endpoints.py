"""The manager's PDF summary of a run: queue an export, cancel it, download the newest finished one, e-mail it."""

from django.core.exceptions import ValidationError
from ninja import Router, Schema, Status
from ninja.errors import HttpError

from workloads.api.error_responses import CONFLICT, ERRORS
from workloads.api.run_endpoints import run_of
from workloads.models import Role
from workloads.reporting.summary import pdf_exports
from workloads.reporting.summary import mail

router = Router(tags=["summaries"])


class SummaryOut(Schema):
    id: int
    status: str


class SummaryEmailOut(Schema):
    id: int
    status: str
    recipients: list[str]


@router.post("/runs/{run_id}/summary", response={202: SummaryOut, **ERRORS, **CONFLICT},
             summary="Queue a PDF summary of a succeeded run (409 for any other run); each call makes a new one")
def create(request, run_id: int):
    run = run_of(request, run_id)
    try:
        summary = pdf_exports.request_summary(run, request.auth)
    except ValidationError as exc:
        raise HttpError(409, exc.messages[0]) from None
    return Status(202, {"id": summary.pk, "status": summary.status})


@router.post("/runs/{run_id}/summary/cancel", response={200: SummaryOut, **ERRORS, **CONFLICT},
             summary="Cancel the run's newest PDF summary still queued or running: it keeps no PDF and mails none "
                     "(409 when none is)")
def cancel(request, run_id: int):
    cancelled = pdf_exports.cancel_summary(run_of(request, run_id, Role.MEMBER))
    if cancelled is None:
        raise HttpError(409, f"run {run_id} has no PDF summary queued or running to cancel")
    return {"id": cancelled.pk, "status": cancelled.status}


@router.get("/runs/{run_id}/summary.pdf", response={200: None, **ERRORS},
            summary="The run's newest finished PDF summary (404 until one is done)",
            openapi_extra={"responses": {200: {"description": "The PDF summary",
                                               "content": {"application/pdf": {"schema": {"type": "string",
                                                                                          "format": "binary"}}}}}})
def download(request, run_id: int):
    summary = pdf_exports.newest_done(run_of(request, run_id))
    if summary is None:
        raise HttpError(404, f"run {run_id} has no finished PDF summary yet: POST /api/runs/{run_id}/summary first")
    return pdf_exports.download(summary)


@router.post("/runs/{run_id}/summary/email", response={202: SummaryEmailOut, **ERRORS, **CONFLICT},
             summary="E-mail the run's newest finished PDF summary to the organisation's recipients "
                     "(409 without a finished summary or without recipients)")
def email(request, run_id: int):
    summary = pdf_exports.newest_done(run_of(request, run_id, Role.MEMBER))
    if summary is None:
        raise HttpError(409, f"run {run_id} has no finished PDF summary to e-mail: POST /api/runs/{run_id}/summary "
                             "first")
    try:
        sent = mail.request_email(summary, request.auth)
    except ValidationError as exc:
        raise HttpError(409, exc.messages[0]) from None
    return Status(202, {"id": sent.pk, "status": sent.status, "recipients": sent.addresses})
