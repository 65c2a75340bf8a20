"""A workload's probes: the questions, with short expected answers, that every strategy is scored on."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from workloads import probe_import
from workloads.forms import ProbeForm, ProbeGenerationForm, ProbeImportForm
from workloads.models import Probe, Role, Workload
from workloads.organisations import access
from workloads.views.methods import form_page
from workloads.views.outcomes import form_response, posted
from workloads.workers import dispatch


def _probe_for(user, pk: int, probe_pk: int) -> tuple[Workload, Probe]:
    workload = access.workload_for(user, pk, Role.MEMBER)
    return workload, get_object_or_404(workload.probes, pk=probe_pk)


def _save_probe(request: HttpRequest, workload: Workload, probe: Probe, done: str) -> HttpResponse:
    form = ProbeForm(posted(request), instance=probe)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, done)
        return redirect("workload_detail", pk=workload.pk)
    return form_response(request, "workloads/probe_form.html", {"workload": workload, "form": form})


@login_required
@form_page
def probe_create(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    probe = Probe(workload=workload, kind=Probe.Kind.USER, created_by=request.user)
    return _save_probe(request, workload, probe, "Added the probe.")


@login_required
@form_page
def probe_import_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Probes from a JSON Lines or CSV file, all or none (workloads.probe_import)."""
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    form = ProbeImportForm(posted(request), request.FILES or None)
    if request.method == "POST" and form.is_valid():
        file = form.cleaned_data["file"]
        try:
            added = probe_import.import_probes(workload, request.user, file.name, file.read(probe_import.MAX_BYTES + 1))
        except probe_import.ProbeImportError as exc:
            for error in exc.errors:
                form.add_error("file", error)
        else:
            messages.success(request, f"Imported {len(added)} probe{'' if len(added) == 1 else 's'}.")
            return redirect("workload_detail", pk=workload.pk)
    return form_response(request, "workloads/probe_import.html", {"workload": workload, "form": form})


@login_required
@form_page
def probe_edit(request: HttpRequest, pk: int, probe_pk: int) -> HttpResponse:
    return _save_probe(request, *_probe_for(request.user, pk, probe_pk), "Saved the probe.")


@login_required
@form_page
def probe_delete(request: HttpRequest, pk: int, probe_pk: int) -> HttpResponse:
    """GET asks to confirm, showing the probe; POST deletes it."""
    workload, probe = _probe_for(request.user, pk, probe_pk)
    if request.method != "POST":
        return render(request, "workloads/probe_delete.html", {"workload": workload, "probe": probe})
    probe.delete()
    messages.success(request, "Deleted the probe. Finished comparisons keep their answers to it.")
    return redirect("workload_detail", pk=workload.pk)


@login_required
@require_POST
def probes_generate(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    form = ProbeGenerationForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["limit"][0])
        return redirect("workload_detail", pk=workload.pk)
    if not workload.documents.exists():
        messages.error(request, "Upload documents first: probes are generated from them.")
        return redirect("workload_detail", pk=workload.pk)
    dispatch.queue_probe_generation(workload.pk, form.cleaned_data["limit"])
    messages.success(request, "Generating probes from the documents: they will appear here shortly.")
    return redirect("workload_detail", pk=workload.pk)
