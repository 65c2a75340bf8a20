"""The run page's changes since the previous period's run."""

from django import template

from workloads.models import ComparisonRun
from workloads.reporting.changes import strategy_name
from workloads.templatetags.units import dollars, signed

register = template.Library()


@register.filter
def signed_dollars(value: float | None) -> str:
    """A change in dollars with its sign: +$0.25, -$0.0005."""
    if value is None:
        return "—"
    return f"+{dollars(value)}" if value > 0 else dollars(value)


@register.filter
def cost_change(change: dict | None) -> str:
    """A cost's change in percent, "+12.0%"; "+3.1%, within noise" when reruns of the same work move the cost as
    much (workloads.reporting.rerun_spread); "from $0" when it cost nothing before; "—" when there is nothing to
    compare. Changes recorded before runs kept their spread carry no verdict, and get no marker."""
    if not change or change.get("current") is None:
        return "—"
    if change.get("percent") is None:
        return "from $0" if change.get("previous") == 0 else "—"
    return f"{signed(change['percent'])}%" + (", within noise" if change.get("beyond_spread") is False else "")


@register.inclusion_tag("workloads/includes/run_changes.html", takes_context=True)
def run_changes(context, run):
    strategies = (run.changes or {}).get("strategies", {})
    # jsonb keeps keys sorted by length, not as written: list them in the run's own order, as its results table does
    in_run_order = ([s for s in run.results.values_list("strategy", flat=True) if s in strategies]
                    if strategies else [])  # no query for a run with nothing to compare
    return {
        "request": context.get("request"), "run": run, "changes": run.changes,
        "rows": [(strategy_name(s), strategies[s]) for s in in_run_order],
        "alerts": list(run.alerts.all()) if run.changes else [],
        "first": run.status == ComparisonRun.Status.SUCCEEDED and not run.changes,
    }
