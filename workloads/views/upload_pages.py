"""Uploading files to a workload and following their extraction."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig, TooManyFilesSent, ValidationError
from django.db.models import F
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from workloads.documents import upload_retries
from workloads.comparisons.outgrown import outgrown_warning
from workloads.documents.intake import ProbeFilesNotConfirmed, accept_upload
from workloads.models import Role, Upload
from workloads.organisations import access
from workloads.views.methods import form_page, read_only


def _upload_for(user, pk: int, needs: Role = Role.VIEWER) -> Upload:
    return get_object_or_404(Upload.objects.select_related("workload"), pk=pk,
                             workload__organisation=access.organisation_of(user, needs))


def _refused(request: HttpRequest, workload, errors: list[str], ask_probe_files: bool = False) -> HttpResponse:
    return render(request, "workloads/upload_form.html",
                  {"workload": workload, "errors": errors, "ask_probe_files": ask_probe_files}, status=400)


@login_required
@form_page
def upload_create(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    if request.method != "POST":
        return render(request, "workloads/upload_form.html", {"workload": workload})
    # Django parses the body on first access and refuses some requests itself; answer those readably.
    try:
        files = request.FILES.getlist("files")
    except TooManyFilesSent:
        limit = settings.UPLOAD_MAX_FILES
        return _refused(request, workload, [f"That is too many files at once: send at most {limit}, "
                                            "or put them in a ZIP archive."])
    except RequestDataTooBig:
        return _refused(request, workload, ["That request is too large: send fewer or smaller files."])
    try:
        # A checkbox: browsers send "on" only when it is ticked. Read as a form's BooleanField reads it, so that a
        # script's "false" or "0" means no here as it does in the API.
        replace = forms.BooleanField(required=False).clean(request.POST.get("replace_same_names"))
        probe_files = forms.BooleanField(required=False).clean(request.POST.get(ProbeFilesNotConfirmed.flag))
        upload = accept_upload(workload, request.user, files, replace, probe_files)
    except ProbeFilesNotConfirmed as exc:
        return _refused(request, workload, exc.messages, ask_probe_files=True)
    except ValidationError as exc:
        return _refused(request, workload, exc.messages)
    messages.success(request, f"Received {len(files)} file{'s' if len(files) != 1 else ''}: extracting the text now.")
    return redirect("upload_detail", pk=upload.pk)


@login_required
@read_only
def upload_detail(request: HttpRequest, pk: int) -> HttpResponse:
    upload = _upload_for(request.user, pk)
    files = upload.files.all()
    return render(request, "workloads/upload_detail.html", {
        "upload": upload, "workload": upload.workload, "files": files, "n_files": len(files),
        # Which upload last gave each document its text: another one replaced it since. Only that id is read,
        # not the document's text, which select_related would load once per row.
        "items": upload.items.annotate(text_from_upload=F("document__origin__upload_id")),
        "outgrown": outgrown_warning(upload.workload) if upload.finished else "",
    })


@login_required
@read_only
@never_cache
def upload_status(request: HttpRequest, pk: int) -> JsonResponse:
    """Polled every 2 s by static/js/status.js while the upload page shows a progress bar."""
    upload = _upload_for(request.user, pk)
    total = upload.files.count()
    return JsonResponse({
        "status": upload.status, "finished": upload.finished, "progress_done": upload.files_done,
        "progress_total": total, "progress_message": f"{upload.files_done} of {total} files extracted",
    })


@login_required
@require_POST
def upload_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    upload = _upload_for(request.user, pk, Role.MEMBER)
    if upload_retries.cancel_upload(upload):
        messages.success(request, "Cancelled: nothing from this upload is kept.")
    else:
        messages.info(request, "This upload had already finished, so there was nothing to cancel.")
    return redirect("upload_detail", pk=upload.pk)


@login_required
@require_POST
def upload_retry(request: HttpRequest, pk: int) -> HttpResponse:
    upload = _upload_for(request.user, pk, Role.MEMBER)
    try:
        retried = upload_retries.retry_upload(upload)
    except ValidationError as exc:
        messages.info(request, exc.messages[0])
    else:
        if retried:
            messages.success(request, "Extracting the text again.")
        else:
            messages.info(request, "Only a failed or cancelled upload can be retried.")
    return redirect("upload_detail", pk=upload.pk)
