"""The run page's changes since the previous period's run, and the dashboard's alerts."""

from django import template
from django.db.models import OuterRef, Subquery

from workloads.models import Alert, ComparisonRun
from workloads.reporting.changes import strategy_name
from workloads.templatetags.units import dollars

register = template.Library()


@register.filter
def signed_dollars(value: float | None) -> str:
    """A change in dollars with its sign: +$0.25, -$0.0005."""
    if value is None:
        return "—"
    return f"+{dollars(value)}" if value > 0 else dollars(value)


@register.inclusion_tag("workloads/includes/run_changes.html", takes_context=True)
def run_changes(context, run):
    strategies = (run.changes or {}).get("strategies", {})
    # jsonb keeps keys sorted by length, not as written: list them in the run's own order, as its results table does
    in_run_order = [s for s in run.results.values_list("strategy", flat=True) if s in strategies]
    return {
        "request": context.get("request"), "run": run, "changes": run.changes,
        "rows": [(strategy_name(s), strategies[s]) for s in in_run_order],
        "alerts": list(run.alerts.all()) if run.changes else [],
        "first": run.status == ComparisonRun.Status.SUCCEEDED and not run.changes,
    }


@register.inclusion_tag("workloads/includes/organisation_alerts.html", takes_context=True)
def organisation_alerts(context, organisation):
    latest = (ComparisonRun.objects.filter(workload=OuterRef("run__workload"), status=ComparisonRun.Status.SUCCEEDED)
              .order_by("-created_at", "-pk").values("pk")[:1])
    # What the list shows, and no other column: with every column of the run and its workload, the query took half
    # as much CPU again, most of it Django building the SQL.
    alerts = (Alert.objects.filter(run__workload__organisation=organisation, run=Subquery(latest))
              .select_related("run__workload").only("message", "run__period", "run__workload__name")
              .order_by("-run__created_at", "-run__pk", "pk"))
    return {"request": context.get("request"), "organisation": organisation, "alerts": list(alerts)}
