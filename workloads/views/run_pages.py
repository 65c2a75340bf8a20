"""Starting a comparison, following it while it runs, and reading what it measured."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from workloads import deletion
from workloads.comparisons import batches, endpoint_spending, fit, pricing, pricing_history, queued_inputs, starting
from workloads.documents import document_sets
from workloads.forms import ReadersForm, RunForm
from workloads.models import ComparisonRun, Role
from workloads.organisations import access
from workloads.reporting import data_exports, scheduling
from workloads.views import run_parts
from workloads.views.methods import form_page, read_only
from workloads.views.outcomes import form_response, posted


@login_required
@form_page
def run_create(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    form, readers = RunForm(posted(request)), ReadersForm(posted(request), workload=workload)
    # An unbound readers form is valid here: the workload page's form offers no choice of reader.
    if request.method == "POST" and form.is_valid() and (not readers.is_bound or readers.is_valid()):
        try:
            run = starting.start_run(workload, request.user, form.cleaned_data["strategies"],
                                     confirm_refusals=form.cleaned_data["confirm_refusals"],
                                     confirm_duration=form.cleaned_data["confirm_duration"], **readers.readers(),
                                     **form.settings())
        except starting.NotConfirmed as exc:
            form.ask_to_confirm(exc)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, "Comparison queued: this page follows it while it runs.")
            return redirect("run_detail", pk=run.pk)
    preflight = preflight_of(workload, form)
    values = form.settings() if _settled(form) else {}
    twin = starting.waiting_twin(workload, preflight.chosen, values)
    estimates = [(e, endpoint_spending.planned(workload, preflight.chosen, values, e.price))
                 for e in readers.fields["endpoints"].queryset.select_related("price") if e.price is not None]
    return form_response(request, "workloads/run_form.html", {
        "workload": workload, "form": form, "readers_form": readers, "endpoint_estimates": estimates,
        "preflight": preflight,
        "twin": twin, "twin_position": starting.queue_position(twin) if twin else None})


def _settled(form: RunForm) -> bool:
    return all(name in getattr(form, "cleaned_data", {}) for name in ("strategies", *starting.SETTINGS))


def preflight_of(workload, form: RunForm) -> fit.Preflight:
    """The fit table and estimate for the strategies and settings the form holds: those posted when they were
    valid (a start refused for confirmation included), the defaults otherwise."""
    if _settled(form):
        return fit.preflight(workload, form.cleaned_data["strategies"], form.settings())
    return fit.preflight(workload, starting.DEFAULT_STRATEGIES)


@login_required
@read_only
def run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run = access.run_for(request.user, pk)
    return render(request, "workloads/run_detail.html", {
        "run": run, "workload": run.workload, "parts": run_parts.parts(run),
        "readers": batches.side_by_side(run),
        "can_cancel": run.status in (ComparisonRun.Status.QUEUED, ComparisonRun.Status.RUNNING),
        "queue_position": starting.queue_position(run),
        "can_reprice": run.status == ComparisonRun.Status.SUCCEEDED,
        "pricings": pricing_history.table(run),
        "refirable_period": _refirable_period(run),
        "documents_read": document_sets.described(run.documents),
        "inputs": queued_inputs.listed(run),
    })


def _refirable_period(run: ComparisonRun) -> str | None:
    """The run's period, if it is a scheduled run whose period can be fired again now."""
    if run.trigger != ComparisonRun.Trigger.SCHEDULED:
        return None
    period = scheduling.refirable_period(run.workload, timezone.now())
    return period if period == run.period else None


@login_required
@read_only
@never_cache
def run_status(request: HttpRequest, pk: int) -> JsonResponse:
    """Polled every 2 s by static/js/status.js while the run page shows a progress bar."""
    run = access.run_for(request.user, pk)
    return JsonResponse({
        "status": run.status, "finished": run.finished, "progress_done": run.progress_done,
        "progress_total": run.progress_total, "progress_percent": run.progress_percent,
        "progress_message": run.progress_message,
    })


@login_required
@require_POST
def run_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    run = access.run_for(request.user, pk, Role.MEMBER)
    if starting.cancel_run(run):
        messages.success(request, "Cancelled. A running comparison stops at its next step.")
    else:
        messages.info(request, "This comparison had already finished, so there was nothing to cancel.")
    return redirect("run_detail", pk=run.pk)


@login_required
@require_POST
def run_retry(request: HttpRequest, pk: int) -> HttpResponse:
    run = access.run_for(request.user, pk, Role.MEMBER)
    try:
        retried = starting.retry_run(run)
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
        return redirect("run_detail", pk=run.pk)
    if retried:
        messages.success(request, "Queued again with the same settings.")
    else:
        messages.info(request, "Only a failed comparison can be retried.")
    return redirect("run_detail", pk=run.pk)


@login_required
@require_POST
def run_reprice(request: HttpRequest, pk: int) -> HttpResponse:
    """A new pricing beside the run's earlier ones (admins only: it changes every figure the run reports)."""
    run = access.run_for(request.user, pk, Role.ADMIN)
    if run.status != ComparisonRun.Status.SUCCEEDED:
        messages.error(request, "Only a finished comparison can be priced.")
        return redirect("run_detail", pk=run.pk)
    pricing.price_run(run, by=request.user)
    if run.pricing_error:
        messages.error(request, f"Could not price this comparison: {run.pricing_error}")
    else:
        messages.success(request, "Priced with the price book entries in force on the run's date; the earlier "
                                  "pricings stay beside it.")
    return redirect("run_detail", pk=run.pk)


@login_required
@form_page
def run_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks to confirm, saying what goes and which runs are compared again; POST deletes (admins only)."""
    run = access.run_for(request.user, pk, Role.ADMIN)
    if request.method != "POST":
        return render(request, "workloads/run_delete.html", {
            "run": run, "workload": run.workload, "followers": deletion.followers(run),
            "summaries": run.summaries.count(), "unfinished": not run.finished})
    try:
        compared_again = deletion.delete_run(run)
    except ValidationError as exc:
        messages.error(request, exc.messages[0])
        return redirect("run_detail", pk=run.pk)
    again = "".join(f" Run {r.pk} is now compared with {f'run {r.previous_run_id}' if r.previous_run_id else 'no run'}."
                    for r in compared_again)
    messages.success(request, f"Deleted run {pk} with its results and PDF summaries.{again}")
    return redirect("workload_detail", pk=run.workload_id)


@login_required
@read_only
def runs_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The workload's runs as CSV, one row per run and strategy, for the logged-in user's browser."""
    workload = access.workload_for(request.user, pk)
    return data_exports.download(data_exports.history_csv(workload), "text/csv", f"workload-{workload.pk}-runs.csv")
