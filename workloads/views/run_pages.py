"""Starting a comparison, following it while it runs, and reading what it measured."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from engine.core import run_settings
from workloads import deletion
from workloads.comparisons import batches, endpoint_spending, fit, pricing, pricing_history, queued_inputs, starting
from workloads.documents import document_sets
from workloads.forms import ReadersForm, RunForm
from workloads.models import ComparisonRun, Role, StrategyResult
from workloads.organisations import access
from workloads.reporting import by_kind, data_exports, page_charts, scheduling
from workloads.reporting.recommendation import monthly, recommendation
from workloads.views.methods import form_page, read_only
from workloads.views.outcomes import form_response, posted


@dataclass(frozen=True)
class AnswerRow:
    """One probe's question and expected answer, with each strategy's answer to it (None where it has none)."""

    question: str
    expected: str
    kind: str
    answers: list


def _answer_rows(results: list[StrategyResult]) -> list[AnswerRow]:
    ran = [r for r in results if not r.refused]
    by_strategy = [{(a.question, a.expected): a for a in r.answers.all()} for r in ran]
    rows = {}
    for answers in by_strategy:
        for key, a in answers.items():
            rows.setdefault(key, a)
    return [AnswerRow(q, e, a.kind, [answers.get((q, e)) for answers in by_strategy]) for (q, e), a in rows.items()]


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
    results = list(run.results.prefetch_related("answers"))  # each result's run is `run` itself: no join
    ran = [r for r in results if not r.refused]
    succeeded = run.status == ComparisonRun.Status.SUCCEEDED and bool(results)
    decision = recommendation(run) if succeeded else None
    return render(request, "workloads/run_detail.html", {
        "run": run, "workload": run.workload, "results": results, "ran": ran,
        "answer_rows": _answer_rows(results), "readers": batches.side_by_side(run),
        "decision": decision, "monthly": monthly(run) if succeeded else None,
        "kinds": by_kind.table(results, run.gate_points, decision.recommended) if decision else None,
        "min_kind_questions": by_kind.MIN_QUESTIONS,
        "charts": [page_charts.cost_vs_quality(run)] if results else [],
        "measured_charts": [page_charts.flop_breakdown(run)] if results else [],
        "chart_refusals": page_charts.refusal_notes(results),
        "can_cancel": run.status in (ComparisonRun.Status.QUEUED, ComparisonRun.Status.RUNNING),
        "queue_position": starting.queue_position(run),
        "can_reprice": run.status == ComparisonRun.Status.SUCCEEDED,
        "pricings": pricing_history.table(run, results),
        "refirable_period": _refirable_period(run),
        "settings": [(run_settings.LABELS[name], run_settings.shown(name, getattr(run, name)))
                     for name in starting.SETTINGS],
        "versions": sorted(run.versions.items()) if isinstance(run.versions, dict) else [],
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
