"""One document of a workload: the text the model reads, shown and downloadable, and deleting it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models.functions import Length, Substr
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from workloads.models import Role, UploadItem
from workloads.organisations import access
from workloads.reporting import data_exports
from workloads.views.methods import read_only

# A page shows this much of the text; a million-token workload's document can hold megabytes.
SHOWN_CHARACTERS = 100_000


@login_required
@read_only
def document_detail(request: HttpRequest, pk: int, document_pk: int) -> HttpResponse:
    """What was read from the file (the text every strategy is given) and how it was read."""
    workload = access.workload_for(request.user, pk)
    # The database cuts the text, so a page of a long document does not load all of it.
    documents = workload.documents.defer("text").annotate(shown=Substr("text", 1, SHOWN_CHARACTERS),
                                                          characters=Length("text"))
    document = get_object_or_404(documents, pk=document_pk)
    reading = UploadItem.objects.filter(document=document).select_related("upload").order_by("-pk").first()
    return render(request, "workloads/document_detail.html", {
        "workload": workload,
        "document": document,
        "cut": document.characters > SHOWN_CHARACTERS,
        "reading": reading,
        # The upload page's note, said here as what that upload did to this document.
        "read_as": reading and reading.detail.removesuffix(UploadItem.REPLACED_NOTE),
        "replacing": reading and reading.detail.endswith(UploadItem.REPLACED_NOTE),
    })


@login_required
@read_only
def document_text(request: HttpRequest, pk: int, document_pk: int) -> HttpResponse:
    """The whole text as a UTF-8 file named after the document."""
    workload = access.workload_for(request.user, pk)
    document = get_object_or_404(workload.documents, pk=document_pk)
    return data_exports.download(document.text, "text/plain", data_exports.document_text_name(document))


@login_required
@require_POST
def document_delete(request: HttpRequest, pk: int, document_pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    document = get_object_or_404(workload.documents.defer("text"), pk=document_pk)
    document.delete()
    messages.success(request, f"Deleted the document {document.name}. Finished comparisons keep their results.")
    return redirect("workload_detail", pk=workload.pk)
