"""How far a strategy's cost moves between runs when nothing but the machine changed: a change counts beyond it.

Within a run the strategies are interleaved, so they share the machine's load and compare fairly. Between runs
they do not: the sample's computed seconds came out 36% apart on two runs on the same kind of CPU. A quarter's
"what changed" and its cost alerts would report such noise as a change, so a cost change counts only when it
exceeds the spread that reruns of the same work show.

The spread is the workload's own once it has `OWN_RUNS` earlier finished runs on the same device, model and library
versions (so that nothing but the machine's load or host changed between them): per
strategy, the largest ratio between two of those runs' median speeds (seconds per TFLOP of work, which depends on
the machine but not on how many documents there are), less one. Before that, the product's measured figure
stands in: `MEASURED_PERCENT`, the sample rerun in fresh processes under different loads.
"""

from __future__ import annotations

from workloads.models import ComparisonRun, StrategyResult

# benchmarks/rerun_spread.py, 2026-12-06: the sample (3 of its questions, the 7 default strategies) compared 5 times,
# each in a fresh process, beside 0, 2, 1, 0 and 5 busy-loop processes (load averages 2.4 to 6.9, wall times 181 to
# 652 s), on a shared 2-core AMD EPYC: the largest ratio between two runs' priced seconds of one strategy, less one
# (routed, 23.9 against 25.6 s). Measured on a CPU; a GPU's event times, unmeasured here, are steadier if anything,
# so there the figure errs towards calling fewer changes.
MEASURED_PERCENT = 7.3
OWN_RUNS = 3  # earlier runs a workload needs before its own spread replaces the measured one
OWN_RUNS_READ = 12  # the latest runs the workload's own spread is taken over: recent machines, a bounded query


def measured() -> dict:
    return {"percent": MEASURED_PERCENT, "runs": 0}


def spreads(run: ComparisonRun) -> dict[str, dict]:
    """Per strategy that ran, {"percent": how far reruns move its cost, "runs": earlier runs it comes from (0: the
    product's measured figure)}."""
    earlier = (ComparisonRun.objects
               .filter(workload_id=run.workload_id, status=ComparisonRun.Status.SUCCEEDED, device=run.device,
                       model=run.model, versions=run.versions, created_at__lt=run.created_at)
               .exclude(pk=run.pk).order_by("-created_at", "-pk").values("pk")[:OWN_RUNS_READ])
    rates: dict[str, list[float]] = {}
    for strategy, rate in (StrategyResult.objects.filter(run__in=earlier, refused="", rate_median__gt=0)
                           .values_list("strategy", "rate_median")):
        rates.setdefault(strategy, []).append(rate)
    found = {}
    for strategy in run.results.filter(refused="").values_list("strategy", flat=True):
        own = rates.get(strategy, [])
        found[strategy] = ({"percent": round((max(own) / min(own) - 1) * 100, 1), "runs": len(own)}
                           if len(own) >= OWN_RUNS else measured())
    return found


def beyond(percent: float | None, spread: dict | None) -> bool | None:
    """Whether a cost change of `percent` is larger than reruns move the cost; None where there is nothing to judge:
    no percentage (a cost unknown, or from $0), or no spread that applies (the two runs ran on different devices:
    that change is the device's, and real)."""
    if spread is None or percent is None:
        return None
    return abs(percent) > spread["percent"]


def between(now: ComparisonRun, before: ComparisonRun, strategy: str) -> dict | None:
    """The spread that a change of `strategy`'s cost from `before` to `now` is judged against: `now`'s, where both
    ran on the same device; None where they did not."""
    if now.device != before.device:
        return None
    return now.rerun_spread.get(strategy) or measured()


def words(spread: dict) -> str:
    """"its last 5 runs on this device were up to 18% apart", or the product's measured figure."""
    if spread["runs"]:
        return f"its last {spread['runs']} runs on this device were up to {spread['percent']:g}% apart"
    return f"reruns of the same work were up to {spread['percent']:g}% apart in our measurements"
