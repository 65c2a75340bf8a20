"""The dashboard: the organisation's workloads, the latest comparison of each, and what changed since the one before."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.db.models import Count, F, Q, Sum, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from engine.core.decision import Decision
from workloads.comparisons import batches
from workloads.comparisons.batches import SideBySide
from workloads.documents import document_sets
from workloads.models import Alert, ComparisonRun, StrategyResult, SummaryEmail, Workload
from workloads.organisations import access, quotas
from workloads.reporting import rerun_spread, scheduling
from workloads.reporting.changes import accuracy_points, dollar_change
from workloads.reporting.recommendation import recommendation
from workloads.views.methods import read_only


@dataclass(frozen=True)
class StrategyChange:
    """One strategy's cost and accuracy in the latest finished comparison next to the one before it."""

    strategy: str
    now: StrategyResult | None
    before: StrategyResult | None
    spread: dict | None  # how far reruns move this strategy's cost, as the latest run recorded it

    @property
    def accuracy_points(self) -> float | None:
        if self.now is None or self.before is None:
            return None
        return accuracy_points(self.before.accuracy, self.now.accuracy)

    @property
    def cost(self) -> dict | None:
        """The change in device cost, with whether it is beyond what reruns move it (changes.dollar_change)."""
        if self.now is None or self.before is None:
            return None
        return dollar_change(self.before.device_dollars, self.now.device_dollars, self.spread)


@dataclass(frozen=True)
class Summary:
    workload: Workload
    latest: ComparisonRun | None  # the latest run in any state
    compared: ComparisonRun | None  # the latest finished one
    previous: ComparisonRun | None  # the finished one before it
    changes: list[StrategyChange]
    context: list[str]  # what else changed between the two: device, model, versions, prices
    refirable_period: str | None  # this period, if its scheduled run failed or was skipped: scheduling.refirable_period
    failed_email: SummaryEmail | None = None  # the latest comparison's PDF, if its last mailing missed anyone
    recommendation: Decision | None = None  # the latest comparison's, as its run page and PDF state it
    readers: SideBySide | None = None  # the latest comparison's batch of readers, side by side


def _context_changes(now: ComparisonRun, before: ComparisonRun) -> list[str]:
    notes = []
    if now.device != before.device:
        notes.append(f"device: {before.device or 'unknown'} → {now.device or 'unknown'}")
    if now.model != before.model:
        notes.append(f"model: {before.model} → {now.model}")
    for name in sorted(set(now.versions) | set(before.versions)):
        if now.versions.get(name) != before.versions.get(name):
            notes.append(f"{name}: {before.versions.get(name, 'none')} → {now.versions.get(name, 'none')}")
    if now.gpu_price_id != before.gpu_price_id:
        notes.append(f"GPU price: {before.gpu_price or 'none'} → {now.gpu_price or 'none'}")
    if now.api_price_id != before.api_price_id:
        notes.append(f"API price: {before.api_price or 'none'} → {now.api_price or 'none'}")
    if documents := document_sets.run_change(before, now):
        notes.append(documents)
    return notes


def _summaries(workloads: list[Workload], at: dt.datetime) -> tuple[list[Summary], list[Alert]]:
    """Every workload's summary, and the alerts of their latest comparisons, in a fixed number of queries however
    many workloads and runs there are: one query per workload's card made the dashboard of a busy organisation
    slow."""
    pks = [w.pk for w in workloads]
    # Each workload's latest run in any state, and its two latest succeeded ones (compared, then previous), newest
    # first, in one query. Ranked by their keys alone, in a subquery: ranked with all their columns, the query took a
    # quarter more CPU, most of it Django building the SQL that filters on the rank.
    newest_first = [F("created_at").desc(), F("pk").desc()]
    # A cancelled run never counts as the latest: cancelling a duplicate left "latest run: cancelled" on the card
    # while the run it duplicated still waited.
    ranked = (ComparisonRun.objects.filter(workload__in=pks).exclude(status=ComparisonRun.Status.CANCELLED)
              .annotate(rank=Window(RowNumber(), partition_by=F("workload"), order_by=newest_first),
                        rank_in_status=Window(RowNumber(), partition_by=[F("workload"), F("status"), F("reader")],
                                              order_by=newest_first))
              .filter(Q(rank=1) | Q(status=ComparisonRun.Status.SUCCEEDED, rank_in_status__lte=2)).values("pk"))
    latest: dict[int, ComparisonRun] = {}
    finished: dict[int, list[ComparisonRun]] = {}
    for run in (ComparisonRun.objects.filter(pk__in=ranked).select_related("gpu_price", "api_price")
                .prefetch_related("results").order_by("workload", "-created_at", "-pk")):
        latest.setdefault(run.workload_id, run)
        if run.status == ComparisonRun.Status.SUCCEEDED:
            finished.setdefault(run.workload_id, []).append(run)
    compared = {pair[0].pk: pair[0] for pair in finished.values()}
    emails: dict[int, SummaryEmail] = {}  # each compared run's latest mailing of its PDF
    for email in SummaryEmail.objects.filter(summary__run__in=list(compared)).annotate(run=F("summary__run")):
        emails.setdefault(email.run, email)
    refirable = scheduling.refirable_periods(workloads, at)
    summaries = []
    for workload in workloads:
        for run in finished.get(workload.pk, []):
            run.workload = workload  # the decision reads the workload's unit, the alerts its name
        summaries.append(_summary(workload, latest.get(workload.pk), finished.get(workload.pk, []), emails,
                                  refirable.get(workload.pk)))
    return summaries, _alerts(compared)


def _alerts(compared: dict[int, ComparisonRun]) -> list[Alert]:
    """The alerts of each workload's latest comparison (against the previous period's), newest run first, each with
    its run (and the run's workload) as already read."""
    alerts = list(Alert.objects.filter(run__in=list(compared)).only("run", "message"))
    for alert in alerts:
        alert.run = compared[alert.run_id]
    return sorted(alerts, key=lambda a: (-a.run.created_at.timestamp(), -a.run_id, a.pk))


def _summary(workload: Workload, latest: ComparisonRun | None, finished: list[ComparisonRun],
             emails: dict[int, SummaryEmail], refirable: str | None) -> Summary:
    compared = finished[0] if finished else None
    # The run before it read by the same reader: the engine's last run against an endpoint's is no change over time.
    previous = next((r for r in finished[1:] if r.reader == compared.reader), None) if compared else None
    if compared is None:
        return Summary(workload, latest, None, None, [], [], refirable)
    now = {r.strategy: r for r in compared.results.all()}
    before = {r.strategy: r for r in previous.results.all()} if previous else {}
    changes = [StrategyChange(s, now.get(s), before.get(s), previous and rerun_spread.between(compared, previous, s))
               for s in dict.fromkeys([*now, *before])]
    context = _context_changes(compared, previous) if previous else []
    email = emails.get(compared.pk)
    failed = email if email and email.status in (SummaryEmail.Status.FAILED, SummaryEmail.Status.PARTIAL) else None
    return Summary(workload, latest, compared, previous, changes, context, refirable, failed, recommendation(compared),
                   batches.side_by_side(compared) if compared.batch else None)


@login_required
@read_only
def dashboard(request: HttpRequest) -> HttpResponse:
    organisation = access.organisation_of(request.user)
    now = timezone.now()
    workloads = (Workload.objects.filter(organisation=organisation).select_related("organisation")
                 .annotate(n_documents=Count("documents"), n_tokens=Sum("documents__tokens")))
    summaries, alerts = _summaries(list(workloads), now)
    return render(request, "workloads/dashboard.html", {
        "organisation": organisation, "summaries": summaries, "alerts": alerts, "quotas": quotas.usage(organisation),
    })
