"""Creating, editing, showing and deleting a workload: its documents, probes, runs and charts over time."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from workloads import deletion
from workloads.comparisons import batches, fit, starting
from workloads.forms import ProbeForm, ProbeGenerationForm, RunForm, WorkloadForm, unbound_html
from workloads.models import Role, Upload
from workloads.organisations import access
from workloads.reporting import page_charts
from workloads.reporting.summary import pdf_exports
from workloads.views import fragments
from workloads.views.methods import form_page, read_only
from workloads.views.outcomes import form_response, posted

RECENT_UPLOADS = 5
# What a row of the page's list of runs shows (and its workload, which the related manager sets on each run): no
# run's report, settings or leases. The list is kept as HTML under these values (views.fragments): rendering its rows
# was a tenth of the page's CPU. A column the list shows must be listed here: else it is read run by run whenever the
# list is drawn, and a change to it alone would not draw the list again.
RUN_ROW = ("workload", "created_at", "status", "progress_done", "progress_total", "strategies", "device", "batch")
RUNS_TEMPLATES = ("workloads/workload_detail.html", "workloads/includes/status_badge.html")
# What the list of probes shows of each (its passages included), kept as HTML under these values and whether the
# viewer may change them (their edit and delete links); it holds no CSRF token. Drawing it was 6% of the page's CPU.
PROBE_ROW = ("pk", "question", "answer", "kind", "source", "passage")
PREFLIGHT_TEMPLATES = ("workloads/includes/preflight.html",)
# What the list of documents shows of each, kept likewise on the page's clock: its delete buttons name the page's one
# form that carries the CSRF token (drawn on every view), so the list holds none.
DOCUMENT_ROW = ("pk", "name", "source_path", "tokens", "lines", "size_bytes", "created_at")
CHARTS_TEMPLATES = ("workloads/workload_detail.html", "workloads/includes/chart.html",
                    "workloads/includes/chart_refusals.html")


def _save_workload(request: HttpRequest, form: WorkloadForm, template: str, context: dict) -> HttpResponse:
    """Save a valid form, or show it again with its errors (a race on the name included)."""
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                workload = form.save()
        except IntegrityError:  # another request took the name between the check and the save
            form.add_error("name", "Your organisation already has a workload with this name.")
        else:
            messages.success(request, f"Saved the workload {workload.name}.")
            return redirect("workload_detail", pk=workload.pk)
    return form_response(request, template, {**context, "form": form})


@login_required
@form_page
def workload_create(request: HttpRequest) -> HttpResponse:
    organisation = access.organisation_of(request.user, Role.MEMBER)
    form = WorkloadForm(posted(request), organisation=organisation)
    return _save_workload(request, form, "workloads/workload_form.html", {"workload": None})


@login_required
@form_page
def workload_edit(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    form = WorkloadForm(posted(request), instance=workload,
                        organisation=workload.organisation)
    return _save_workload(request, form, "workloads/workload_form.html", {"workload": workload})


@login_required
@form_page
def workload_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks to confirm, saying what goes with it; POST deletes (admins only: the history goes too)."""
    workload = access.workload_for(request.user, pk, Role.ADMIN)
    if request.method == "POST":
        try:
            deletion.delete_workload(workload)
        except ValidationError as exc:
            messages.error(request, exc.messages[0])
            return redirect("workload_detail", pk=workload.pk)
        messages.success(request, f"Deleted the workload {workload.name} and all it held.")
        return redirect("dashboard")
    return render(request, "workloads/workload_delete.html",
                  {"workload": workload, "goes": deletion.what_goes(workload)})


@login_required
@read_only
def workload_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # With its beat entry and crontab, which the schedule panel shows: a query fewer.
    workload = access.workload_for(request.user, pk, related=("periodic_task__crontab",))
    # The latest succeeded run, read once for its measured rates and its PDF summary (period, and whether one is done).
    latest = fit.latest_rate_run(workload, "period", done=pdf_exports.has_done())
    history = page_charts.WorkloadCharts(workload)
    documents, probes = list(workload.documents.defer("text")), list(workload.probes.all())
    # What the form's defaults would run, for the documents and probes the page lists; the form itself shows it for
    # what is posted.
    preflight = fit.preflight(workload, starting.DEFAULT_STRATEGIES, documents=documents, probes=len(probes),
                              rate_run=latest)
    runs = workload.runs.only(*RUN_ROW)
    rows = list(runs.values_list("pk", *RUN_ROW))
    zone = timezone.get_current_timezone_name()
    may_change = request.user.membership.may_change
    return render(request, "workloads/workload_detail.html", {
        "workload": workload,
        "documents": documents,
        "total_tokens": preflight.document_tokens,
        "uploads": Upload.with_kept_any(workload.uploads.all())[:RECENT_UPLOADS],
        "probes": probes,
        "runs": runs,
        "runs_key": fragments.key(RUNS_TEMPLATES, zone, rows),
        "documents_key": fragments.key(RUNS_TEMPLATES, zone, workload.pk, workload.target_model, may_change,
                                       preflight.document_tokens,
                                       [tuple(getattr(d, name) for name in DOCUMENT_ROW) for d in documents]),
        "probes_key": fragments.key(RUNS_TEMPLATES, workload.pk, may_change,
                                    [tuple(getattr(p, name) for name in PROBE_ROW) for p in probes]),
        "preflight_key": _preflight_key(preflight),
        "fragment_timeout": fragments.TIMEOUT_S,
        "probe_form": unbound_html(ProbeForm),
        "generation_form": unbound_html(ProbeGenerationForm),
        "run_form": unbound_html(RunForm),
        "preflight": preflight,
        # Read, or drawn, only where the page has not kept their HTML under their key.
        "history": history,
        "charts_key": fragments.key(CHARTS_TEMPLATES, history.key),
        "latest_run": latest,
        # Read only where some run was queued with other readers: the page's rows already say.
        "readers_history": batches.history(workload) if any(row[-1] for row in rows) else [],
    })


def _preflight_key(preflight: fit.Preflight) -> str:
    """The fit table's key: every value preflight.html shows, the estimate's sentence (what it rests on: the rates'
    run, the model's speed) included. The rows are frozen dataclasses of plain values, so their repr says all."""
    return fragments.key(PREFLIGHT_TEMPLATES, preflight.model, preflight.max_positions, preflight.document_tokens,
                         preflight.documents, preflight.probes, preflight.rows, preflight.chosen,
                         preflight.prompt_tokens, preflight.estimate)
