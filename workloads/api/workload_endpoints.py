"""Workloads, their documents (uploaded as files, extracted by a task) and their probes."""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import File, Form, Router, Status, UploadedFile
from ninja.errors import HttpError

from workloads import deletion, probe_import
from workloads.api.error_responses import CONFLICT, ERRORS, QUOTA
from workloads.api.schemas import (
    DocumentOut, ProbeIn, ProbeOut, UploadAcceptedOut, UploadOut, WorkloadIn, WorkloadOut,
)
from workloads.comparisons import pricing
from workloads.documents import upload_retries
from workloads.documents.intake import ProbeFilesNotConfirmed, accept_upload
from workloads.models import ComparisonRun, Document, Probe, Role, Upload, Workload
from workloads.organisations.access import organisation_of, workload_for
from workloads.rules import name_taken, workload_named_alike

router = Router(tags=["workloads"])


def _count(model, field: str = "workload") -> Subquery:
    # Subqueries, not joined aggregates: two joined Counts would multiply each other.
    rows = model.objects.filter(**{field: OuterRef("pk")}).order_by().values(field).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(rows, output_field=IntegerField()), Value(0))


def with_summary(workloads: QuerySet) -> QuerySet:
    tokens = (Document.objects.filter(workload=OuterRef("pk")).order_by().values("workload")
              .annotate(t=Sum("tokens")).values("t"))
    latest = ComparisonRun.objects.filter(workload=OuterRef("pk")).order_by("-created_at", "-pk")
    return workloads.annotate(
        n_documents=_count(Document), n_probes=_count(Probe),
        n_tokens=Coalesce(Subquery(tokens, output_field=IntegerField()), Value(0)),
        latest_run_id=Subquery(latest.values("pk")[:1]), latest_run_status=Subquery(latest.values("status")[:1]),
    )


def workload_out(w: Workload) -> dict:
    return {
        "id": w.pk, "name": w.name, "kind": w.kind, "unit": w.unit, "description": w.description,
        "expected_volume": w.expected_volume, "target_model": w.target_model, "api_provider": w.api_provider,
        "api_model": w.api_model, "created_at": w.created_at, "documents": w.n_documents, "tokens": w.n_tokens,
        "probes": w.n_probes,
        "latest_run": {"id": w.latest_run_id, "status": w.latest_run_status} if w.latest_run_id else None,
    }


def workload_of(request, pk: int, needs: Role = Role.VIEWER) -> Workload:
    """The workload in the token user's organisation; 404 for anyone else's (its existence is not revealed),
    403 if their role does not allow `needs`."""
    return workload_for(request.auth, pk, needs)


@router.get("/workloads", response={200: list[WorkloadOut], **ERRORS}, summary="List your organisation's workloads")
def list_workloads(request):
    workloads = with_summary(Workload.objects.filter(organisation=organisation_of(request.auth)))
    return [workload_out(w) for w in workloads]


@router.post("/workloads", response={201: WorkloadOut, **ERRORS}, summary="Create a workload")
def create_workload(request, payload: WorkloadIn):
    organisation = organisation_of(request.auth, Role.MEMBER)
    if other := workload_named_alike(organisation, payload.name):  # as the web form checks it
        raise HttpError(400, name_taken(other))
    if error := pricing.api_choice_error(organisation, payload.api_provider, payload.api_model):
        raise HttpError(400, f"{error}: choose one of those (GET {reverse('api-1:list_api_prices')}), add it first "
                             f"({pricing.add_with('api')}), or leave api_provider and api_model empty "
                             "for no API comparison")
    try:
        with transaction.atomic():
            workload = Workload.objects.create(organisation=organisation, **payload.dict())
    except IntegrityError:  # created by a concurrent request since the check above
        raise HttpError(400, name_taken(workload_named_alike(organisation, payload.name) or payload.name)) from None
    return Status(201, workload_out(with_summary(Workload.objects.filter(pk=workload.pk)).get()))


@router.get("/workloads/{workload_id}", response={200: WorkloadOut, **ERRORS},
            summary="A workload with its document, token and probe counts and its latest run")
def get_workload(request, workload_id: int):
    organisation = organisation_of(request.auth)
    return workload_out(get_object_or_404(with_summary(Workload.objects.filter(organisation=organisation)),
                                          pk=workload_id))


@router.delete("/workloads/{workload_id}", response={204: None, **ERRORS, **CONFLICT},
               summary="Delete a workload with its documents, probes, uploads, runs, sweeps and schedule "
                       "(409 while a run, upload or group-size sweep of it is queued or running)")
def delete_workload(request, workload_id: int):
    try:
        deletion.delete_workload(workload_for(request.auth, workload_id, Role.ADMIN))
    except ValidationError as exc:
        raise HttpError(409, exc.messages[0]) from None
    return Status(204, None)


@router.get("/workloads/{workload_id}/documents", response={200: list[DocumentOut], **ERRORS},
            summary="The workload's documents (without their text)")
def list_documents(request, workload_id: int):
    workload = workload_of(request, workload_id)
    return list(workload.documents.defer("text"))


@router.post("/workloads/{workload_id}/documents", response={202: UploadAcceptedOut, **ERRORS, **QUOTA},
             summary="Upload documents (multipart, field `files`, repeated); extraction runs in the background (429 "
                     "past the organisation's quota of uploads a day or of stored bytes)")
def upload_documents(request, workload_id: int, files: list[UploadedFile] = File(
        ..., min_length=1, description="documents (text, PDF, DOCX, JSON transcripts) or ZIP archives of them; each a part with "
                         "Content-Disposition: form-data; name=\"files\"; filename=\"...\", its headers in UTF-8"),
        replace_same_names: bool = Form(False, description="a document whose name the workload has replaces that "
                                        "document's text (a new version), instead of being skipped"),
        store_probe_files: bool = Form(False, description="store a .jsonl, .json or .csv file that reads as probes "
                                       "(questions with answers) as a document anyway; without it, such an upload is "
                                       "refused with a 400, as its answers would be in the documents")):
    workload = workload_of(request, workload_id, Role.MEMBER)
    try:
        upload = accept_upload(workload, request.auth, files, replace_same_names, store_probe_files)
    except ProbeFilesNotConfirmed as exc:
        raise HttpError(400, f"{exc.message}: send store_probe_files=true to store them") from None
    return Status(202, {"id": upload.pk, "status": upload.status})


@router.get("/uploads/{upload_id}", response={200: UploadOut, **ERRORS},
            summary="An upload's progress, and what extraction kept or skipped")
def get_upload(request, upload_id: int):
    return _upload_out(_upload_of(request, upload_id))


@router.post("/uploads/{upload_id}/cancel", response={200: UploadOut, **ERRORS, **CONFLICT},
             summary="Cancel a queued or running upload's extraction; it keeps nothing (409 once it has finished)")
def cancel_upload(request, upload_id: int):
    upload = _upload_of(request, upload_id, Role.MEMBER)
    if not upload_retries.cancel_upload(upload):
        raise HttpError(409, f"upload {upload.pk} has already finished: it is {upload.status}")
    return _upload_out(_upload_of(request, upload_id))


@router.post("/uploads/{upload_id}/retry", response={200: UploadOut, **ERRORS, **CONFLICT},
             summary="Extract a failed or cancelled upload again from its stored files (409 otherwise)")
def retry_upload(request, upload_id: int):
    upload = _upload_of(request, upload_id, Role.MEMBER)
    try:
        retried = upload_retries.retry_upload(upload)
    except ValidationError as exc:
        raise HttpError(409, exc.messages[0]) from exc
    if not retried:
        raise HttpError(409, f"upload {upload.pk} is {upload.status}: only a failed or cancelled one is retried")
    return _upload_out(_upload_of(request, upload_id))


def _upload_of(request, upload_id: int, needs: Role = Role.VIEWER) -> Upload:
    """The upload if its workload is in the token user's organisation and their role allows `needs`."""
    uploads = (Upload.objects.filter(workload__organisation=organisation_of(request.auth, needs))
               .annotate(files_total=Count("files")))
    return get_object_or_404(uploads, pk=upload_id)


def _upload_out(upload: Upload) -> dict:
    return {
        "id": upload.pk, "workload_id": upload.workload_id, "status": upload.status, "files_done": upload.files_done,
        "files_total": upload.files_total, "replace_same_names": upload.replace_same_names, "error": upload.error,
        "created_at": upload.created_at, "finished_at": upload.finished_at,
        "items": [{"name": i.name, "kept": i.kept, "detail": i.detail, "tokens": i.tokens, "document_id": i.document_id}
                  for i in upload.items.all()],
    }


@router.get("/workloads/{workload_id}/probes", response={200: list[ProbeOut], **ERRORS},
            summary="The workload's probes")
def list_probes(request, workload_id: int):
    return list(workload_of(request, workload_id).probes.all())


@router.post("/workloads/{workload_id}/probes/import", response={201: list[ProbeOut], **ERRORS},
             summary="Add many probes from a JSON Lines or CSV file (multipart, field `file`): all, or none and a 400 "
                     "naming each bad line")
def import_probes(request, workload_id: int, file: UploadedFile = File(
        ..., description="JSON Lines, one probe object a line, or CSV whose first row names the columns question "
                         "and answer (kind and source optional)")):
    workload = workload_of(request, workload_id, Role.MEMBER)
    try:
        added = probe_import.import_probes(workload, request.auth, file.name or "probes", file.read(
            probe_import.MAX_BYTES + 1))
    except probe_import.ProbeImportError as exc:
        raise HttpError(400, str(exc)) from None
    return Status(201, added)


@router.post("/workloads/{workload_id}/probes", response={201: ProbeOut, **ERRORS},
             summary="Add a probe: a question about the documents with a short expected answer")
def add_probe(request, workload_id: int, payload: ProbeIn):
    workload = workload_of(request, workload_id, Role.MEMBER)
    probe = Probe.objects.create(workload=workload, created_by=request.auth, **payload.dict())
    return Status(201, probe)
