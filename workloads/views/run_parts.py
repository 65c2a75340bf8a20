"""The parts of a run's page that its own figures alone draw, kept as HTML once the run has succeeded.

A succeeded run's results change only when it is re-priced, which stamps its priced_at and pricing_error and sets
its prices in the same transaction (page_charts.RUN_STAMP), and its answers never change: so its recommendation, its
strategies, charts and answers, its prices and what produced it are drawn once for what RUN_PAGE_STAMP holds and read
back as HTML (views.fragments' keys: the values shown and the templates that draw them). Reading the results and their
answers, deciding, charting and drawing them were about two thirds of the page's CPU.

The page draws the rest on every view: what follows the person viewing it (the forms, their CSRF tokens, what their
role allows) and what other rows change without the run changing (its PDF summaries, its comparison with the previous
period's run, the endpoint runs queued beside it, its earlier pricings with who made them). The parts see no request,
so none of that can slip into them. Endpoint runs and unfinished ones are drawn on every view.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone

from engine.core import run_settings
from workloads.comparisons import starting
from workloads.models import ComparisonRun, StrategyResult
from workloads.reporting import by_kind, page_charts
from workloads.reporting.recommendation import monthly, recommendation
from workloads.views import fragments

PARTS = {name: f"workloads/includes/run_parts/{name}.html" for name in ("decision", "results", "prices", "measured")}
# Every template the parts draw with: another deploy's templates are another key.
TEMPLATES = (*PARTS.values(), "workloads/includes/recommendation.html", "workloads/includes/kinds.html",
             "workloads/includes/chart.html", "workloads/includes/chart_refusals.html")
# What the parts show of a succeeded run beside its results and answers, which a re-pricing alone changes (and it
# stamps priced_at): its identity, its prices (their entries are never edited, only added or deleted when unused),
# its gate, units and provenance. The workload's unit and expected volume (the monthly sentence) are keyed too.
RUN_PAGE_STAMP = ("pk", "status", "reader", "created_at", "units_of_work", "gate_points", "priced_at", "pricing_error",
                  "gpu_price_id", "api_price_id", "device", "model", "strategies", "versions", *starting.SETTINGS)


@dataclass(frozen=True)
class AnswerRow:
    """One probe's question and expected answer, with each strategy's answer to it (None where it has none)."""

    question: str
    expected: str
    kind: str
    answers: list


def answer_rows(results: list[StrategyResult]) -> list[AnswerRow]:
    ran = [r for r in results if not r.refused]
    by_strategy = [{(a.question, a.expected): a for a in r.answers.all()} for r in ran]
    rows = {}
    for answers in by_strategy:
        for key, a in answers.items():
            rows.setdefault(key, a)
    return [AnswerRow(q, e, a.kind, [answers.get((q, e)) for answers in by_strategy]) for (q, e), a in rows.items()]


def _kept(run: ComparisonRun) -> bool:
    """Whether the run's parts can be kept: succeeded, so its results are written, and read by this worker's engine (an
    endpoint run's monthly sentence names its endpoint, which can be renamed)."""
    return run.status == ComparisonRun.Status.SUCCEEDED and not run.reader


def parts(run: ComparisonRun) -> dict:
    """{"decision", "results", "prices", "measured": HTML; "charts": whether the page draws charts}, on the page's
    clock, from the cache for a succeeded run of the engine whose stamp was drawn before."""
    if not _kept(run):
        return _draw(run)
    stamp = tuple(getattr(run, name) for name in RUN_PAGE_STAMP)
    name = fragments.key(TEMPLATES, timezone.get_current_timezone_name(), run.workload.unit,
                         run.workload.expected_volume, stamp)
    drawn = cache.get(name)
    if drawn is None:
        drawn = _draw(run)
        cache.set(name, drawn, fragments.TIMEOUT_S)
    return drawn


def _draw(run: ComparisonRun) -> dict:
    results = list(run.results.prefetch_related("answers"))  # each result's run is `run` itself: no join
    ran = [r for r in results if not r.refused]
    succeeded = run.status == ComparisonRun.Status.SUCCEEDED and bool(results)
    decision = recommendation(run) if succeeded else None
    context = {
        "run": run, "workload": run.workload, "results": results, "ran": ran, "answer_rows": answer_rows(results),
        "decision": decision, "monthly": monthly(run) if succeeded else None,
        "kinds": by_kind.table(results, run.gate_points, decision.recommended) if decision else None,
        "min_kind_questions": by_kind.MIN_QUESTIONS,
        "charts": [page_charts.cost_vs_quality(run)] if results else [],
        "measured_charts": [page_charts.flop_breakdown(run)] if results else [],
        "chart_refusals": page_charts.refusal_notes(results),
        "settings": [(run_settings.LABELS[name], run_settings.shown(name, getattr(run, name)))
                     for name in starting.SETTINGS],
        "versions": sorted(run.versions.items()) if isinstance(run.versions, dict) else [],
    }
    drawn = {name: render_to_string(template, context) for name, template in PARTS.items()}
    return {**drawn, "charts": bool(results)}
