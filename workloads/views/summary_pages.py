"""The manager's PDF summary of a run: export it, follow the export, download the newest, e-mail it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from workloads.models import Role
from workloads.organisations import access
from workloads.reporting.summary import pdf_exports
from workloads.reporting.summary import mail
from workloads.views.methods import read_only
from workloads.views.outcomes import refusal_shown


@login_required
@require_POST
def summary_create(request: HttpRequest, pk: int) -> HttpResponse:
    # Viewers too: a PDF of a run is another way of reading it, as its CSV is, and managers are who read it.
    run = access.run_for(request.user, pk)
    with refusal_shown(request):
        pdf_exports.request_summary(run, request.user)
        messages.success(request, "PDF summary queued: the link appears on this page when it is ready.")
    return redirect("run_detail", pk=run.pk)


@login_required
@require_POST
def summary_email(request: HttpRequest, pk: int) -> HttpResponse:
    """Mail the run's newest finished PDF to the organisation's recipients."""
    run = access.run_for(request.user, pk, Role.MEMBER)
    summary = pdf_exports.newest_done(run)
    if summary is None:
        messages.error(request, "This run has no finished PDF summary to e-mail yet: export one first.")
        return redirect("run_detail", pk=run.pk)
    with refusal_shown(request):
        email = mail.request_email(summary, request.user)
        messages.success(request, f"E-mail queued to {', '.join(email.addresses)}.")
    return redirect("run_detail", pk=run.pk)


@login_required
@require_POST
def summary_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    run = access.run_for(request.user, pk, Role.MEMBER)
    if pdf_exports.cancel_summary(run):
        messages.success(request, "Export cancelled: no PDF is kept from it, and none is mailed.")
    else:
        messages.info(request, "No export of this run was queued or running, so there was nothing to cancel.")
    return redirect("run_detail", pk=run.pk)


@login_required
@read_only
def summary_download(request: HttpRequest, pk: int) -> HttpResponse:
    run = access.run_for(request.user, pk)
    summary = pdf_exports.newest_done(run)
    if summary is None:
        raise Http404("this run has no finished PDF summary yet")
    return pdf_exports.download(summary)


@login_required
@read_only
@never_cache
def summary_status(request: HttpRequest, pk: int) -> JsonResponse:
    """Polled by static/js/summary.js while the newest summary is queued or running."""
    run = access.run_for(request.user, pk)
    summary = pdf_exports.newest(run)
    if summary is None:
        return JsonResponse({"status": None, "finished": True, "download_url": None, "error": ""})
    done = pdf_exports.newest_done(run)
    return JsonResponse({
        "status": summary.status,
        "finished": summary.finished,
        "pages": summary.pages,
        "error": summary.error,
        "download_url": reverse("summary_download", args=[run.pk]) if done else None,
    })
