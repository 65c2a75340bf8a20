"""What changed since the previous period's run: Δ cost, Δ unit cost and Δ accuracy per strategy, and alerts.

A run is compared with the latest succeeded run of an earlier period (a quarter or a month), never with
another run of its own period: managers read changes quarter on quarter, and re-running within a quarter
would otherwise hide the quarter's drift behind the last few days'.

The Δ arithmetic lives here only; the dashboard's run-to-run changes use the same functions.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from engine.core import run_settings
from workloads.formatting import dollars, percent
from workloads.models import Alert, ComparisonRun, StrategyResult, periods
from workloads.reporting import rerun_spread

# Changes are stored rounded so that a rise of exactly the threshold (10% from $0.001 to $0.0011) is not
# pushed past it by floating-point noise (10.000000000000009%).
_DECIMALS = 6


def strategy_name(strategy: str) -> str:
    return run_settings.name(strategy)


def percent_change(previous: float | None, current: float | None) -> float | None:
    """Percent change from `previous` to `current`; None when either is missing or `previous` is 0."""
    if previous is None or current is None or previous == 0:
        return None
    return round((current - previous) / previous * 100, _DECIMALS)


def accuracy_points(previous: float | None, current: float | None) -> float | None:
    """Change in accuracy (fractions 0..1) in percentage points; None when either is missing."""
    if previous is None or current is None:
        return None
    return round((current - previous) * 100, _DECIMALS)


def dollar_change(previous: float | None, current: float | None, spread: dict | None) -> dict:
    delta = None if previous is None or current is None else current - previous
    percent = percent_change(previous, current)
    return {"previous": previous, "current": current, "delta": delta, "percent": percent,
            "beyond_spread": rerun_spread.beyond(percent, spread)}


def strategy_change(before: StrategyResult, now: StrategyResult, spread: dict | None) -> dict:
    """One strategy's changes; a cost change is "beyond_spread" when it exceeds how far reruns move the cost (None:
    no spread applies, rerun_spread.between)."""
    return {
        "cost": dollar_change(before.device_dollars, now.device_dollars, spread),
        "unit_cost": dollar_change(before.unit_device_dollars, now.unit_device_dollars, spread),
        "spread": spread,
        "accuracy": {"previous": before.accuracy, "current": now.accuracy,
                     "delta_points": accuracy_points(before.accuracy, now.accuracy)},
        "gated": {"previous": before.gated, "current": now.gated},
    }


def previous_period_run(run: ComparisonRun) -> ComparisonRun | None:
    """The latest succeeded run of the same workload, read by the same reader (the engine, or the same endpoint as
    named when queued), queued before the run's period began.

    Queued before, not "of an earlier period start": after a switch from quarterly to monthly, the
    quarterly run of 15 February is of the quarter that began on 1 January, yet a run of February
    must not be compared with it.
    """
    return (ComparisonRun.objects
            .filter(workload_id=run.workload_id, reader=run.reader, status=ComparisonRun.Status.SUCCEEDED,
                    created_at__lt=periods.start_moment(run.period_start, run.time_zone))
            .order_by("-created_at", "-pk").first())


def compare(run: ComparisonRun, previous: ComparisonRun) -> dict:
    """The `changes` JSON of `run` against `previous`: the strategies that ran (not refused) in both."""
    before = {r.strategy: r for r in previous.results.select_related("run") if not r.refused}
    strategies = {r.strategy: strategy_change(before[r.strategy], r, rerun_spread.between(run, previous, r.strategy))
                  for r in run.results.select_related("run") if not r.refused and r.strategy in before}
    return {"previous_run": previous.pk, "previous_period": previous.period, "unit": run.workload.unit,
            "strategies": strategies}


def _figure(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _cost_up(run: ComparisonRun, previous: ComparisonRun, strategy: str, change: dict) -> str:
    cost, unit_cost = change["cost"], change["unit_cost"]
    more = (f"{_figure(cost['percent'])}% more than in {previous.period}" if cost["percent"] is not None
            else f"more than in {previous.period}, when it cost nothing")  # no percentage of $0
    message = (f"{strategy_name(strategy)} costs {more}: "
               f"{dollars(cost['previous'])} → {dollars(cost['current'])} for the workload")
    if unit_cost["previous"] is not None and unit_cost["current"] is not None:
        message += f", {dollars(unit_cost['previous'])} → {dollars(unit_cost['current'])} per {run.workload.unit}"
    if run.device and previous.device and run.device != previous.device:
        # The same device class at the same price, on another machine: on CPUs a model apart, dense took 2x as long.
        message += f", measured on another device ({previous.device} → {run.device})"
    elif cost.get("beyond_spread"):
        message += f", beyond the machine's own noise ({rerun_spread.words(change['spread'])})"
    return message + "."


def _accuracy_down(run: ComparisonRun, previous: ComparisonRun, strategy: str, change: dict) -> str:
    accuracy = change["accuracy"]
    return (f"{strategy_name(strategy)}'s accuracy fell {_figure(-accuracy['delta_points'])} points since "
            f"{previous.period}: {percent(accuracy['previous'])} → {percent(accuracy['current'])} of probes "
            f"answered correctly.")


def _now_gated(run: ComparisonRun, previous: ComparisonRun, strategy: str, change: dict) -> str:
    accuracy = change["accuracy"]
    return (f"{strategy_name(strategy)} fell out of the quality gate in {run.period}: it answered "
            f"{percent(accuracy['current'])} of probes correctly, more than {_figure(run.gate_points)} points below "
            f"the best, after {percent(accuracy['previous'])} in {previous.period}.")


def _no_longer_gated(run: ComparisonRun, previous: ComparisonRun, strategy: str, change: dict) -> str:
    accuracy = change["accuracy"]
    return (f"{strategy_name(strategy)} is back inside the quality gate in {run.period}: it answered "
            f"{percent(accuracy['current'])} of probes correctly, after {percent(accuracy['previous'])} in "
            f"{previous.period}.")


def alerts(run: ComparisonRun, previous: ComparisonRun, changes: dict) -> list[Alert]:
    """The unsaved alerts the workload's thresholds imply for `changes`; past a threshold, not at it."""
    workload = run.workload
    found = []
    for strategy, change in changes["strategies"].items():
        cost_percent, points = change["cost"]["percent"], change["accuracy"]["delta_points"]
        # A device priced at $0 last period (owned hardware, say) and at a price now: a rise past any threshold.
        from_nothing = change["cost"]["previous"] == 0 and (change["cost"]["current"] or 0) > 0
        # A rise counts past the workload's threshold and past what reruns move the cost: within that, it is the
        # machine's load, not the workload, that changed.
        cost_up = from_nothing or (cost_percent is not None and cost_percent > workload.alert_cost_percent
                                   and change["cost"].get("beyond_spread") is not False)
        gated = change["gated"]
        checks = (
            (Alert.Kind.COST_UP, cost_up, _cost_up),
            (Alert.Kind.ACCURACY_DOWN, points is not None and -points > workload.alert_accuracy_points,
             _accuracy_down),
            (Alert.Kind.NOW_GATED, not gated["previous"] and gated["current"], _now_gated),
            (Alert.Kind.NO_LONGER_GATED, gated["previous"] and not gated["current"], _no_longer_gated),
        )
        found += [Alert(run=run, previous_run=previous, kind=kind, strategy=strategy,
                        message=message(run, previous, strategy, change))
                  for kind, fired, message in checks if fired]
    return found


def _record(run: ComparisonRun) -> None:
    previous = previous_period_run(run)
    run.previous_run = previous
    run.rerun_spread = rerun_spread.spreads(run)
    run.changes = compare(run, previous) if previous else {}
    run.compared_at = timezone.now()
    run.save(update_fields=["previous_run", "rerun_spread", "changes", "compared_at"])
    run.alerts.all().delete()
    if previous:
        Alert.objects.bulk_create(alerts(run, previous, run.changes))


def _followers(run: ComparisonRun) -> list[ComparisonRun]:
    """Later periods' runs whose previous period's run is `run`, or may now be (it finished late)."""
    later = (ComparisonRun.objects
             .filter(workload_id=run.workload_id, reader=run.reader, status=ComparisonRun.Status.SUCCEEDED,
                     period_start__gt=run.day)
             # one compared with a newer run than `run` keeps it: `run` cannot be the latest before it
             .filter(Q(previous_run=None) | Q(previous_run__created_at__lte=run.created_at))
             .select_related("workload"))
    return [r for r in later if r.previous_run_id == run.pk or previous_period_run(r) == run]


def record_changes(run: ComparisonRun) -> None:
    """Store the run's changes against the previous period's run and replace its alerts.

    Re-pricing a run also changes the Δs of the runs that compare with it, so theirs are recorded again.
    """
    if run.status != ComparisonRun.Status.SUCCEEDED:
        return
    _record(run)
    for follower in _followers(run):
        _record(follower)
