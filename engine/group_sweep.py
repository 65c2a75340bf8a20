"""A group-size sweep: whole documents with Index Share at several group sizes, on one workload's probes.

The article leaves open whether sharing the indexer across 4 layers is the sweet spot. A larger group runs the
indexer less often and so costs less, and its later layers reuse a selection made further away, which may cost
accuracy. The sweep measures both per workload, and recommends the smallest cost whose accuracy stays inside the
quality gate against the most accurate group size.

Each probe is asked at every group size, the sizes interleaved probe by probe (probe i starts with size i mod k),
as a comparison interleaves its strategies: a burst of load on the machine then falls on every size alike. Each ask
is a one-probe engine.compare of full_index_share, so its seconds, FLOPs and grading are exactly a comparison's.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict

from engine import stats
from engine.attention import AttentionConfig
from engine.compare import Workload, compare
from engine.documents import Document
from engine.errors import EngineError
from engine.model.loader import LoadedModel
from engine.probes import Probe
from engine.run_settings import GROUP_SIZES

STRATEGY = "full_index_share"
Progress = Callable[[int, int, str], None]  # (asks done, asks planned, what is running)


def sweep(lm: LoadedModel, documents: Sequence[Document], probes: Sequence[Probe], attention: AttentionConfig,
          group_sizes: Sequence[int] = GROUP_SIZES, gate_points: float = 5.0,
          progress: Progress | None = None) -> dict:
    """Ask every probe at every group size; return each size's accuracy (with its 95% interval and its gate against
    the best size), FLOPs and priced seconds, and the recommended size."""
    sizes = list(dict.fromkeys(group_sizes))
    if not sizes or not probes:
        raise EngineError("a sweep needs at least one group size and one probe")
    configs = {size: attention.replace(group_size=size, mode="index_share") for size in sizes}  # checks each size
    asks, order = {size: [] for size in sizes}, []
    planned = len(sizes) * len(probes)
    for i, probe in enumerate(probes):
        for size in sizes[i % len(sizes):] + sizes[:i % len(sizes)]:
            if progress:
                progress(len(order), planned, f"group size {size}: {probe.question[:80]}")
            work = Workload(documents, [probe], strategies=(STRATEGY,), diagnostics=False,
                            attention=configs[size])
            asks[size].append(compare(lm, work)["strategies"][STRATEGY])
            order.append(size)
    refused = {size: a[0]["refused"] for size, a in asks.items() if a[0].get("refused")}
    if refused:  # the documents do not fit the model: every size refuses alike
        raise EngineError(f"whole documents refused: {next(iter(refused.values()))}")
    points = {size: _point(size, a) for size, a in asks.items()}
    gates = stats.gates({size: p["correct"] for size, p in points.items()}, gate_points)
    for size, point in points.items():
        gate = gates[size]
        point["quality"] |= {"gate": gate.call, "points_below": gate.points_below, "mcnemar_p": gate.p_value,
                             "probes_to_tell": gate.probes_to_tell}
    return {
        "model": lm.name, "strategy": STRATEGY, "probes": len(probes), "gate_points": gate_points,
        "attention": {k: v for k, v in vars(attention).items() if k != "group_size"},
        "order": order,
        "points": [points[size] for size in sizes],
        "recommended": recommended(points),
    }


def _point(size: int, asks: list[dict]) -> dict:
    correct = [a["probes"][0]["correct"] for a in asks]
    seconds = sum(a["seconds"] for a in asks)
    flops = sum(a["flops"]["total"] for a in asks)
    return {
        "group_size": size, "correct": correct, "seconds": seconds, "flops": flops,
        "flops_indexer": sum(a["flops"]["indexer"] for a in asks),
        "rate": asdict(stats.Spread.of([a["seconds"] / a["flops"]["total"] * 1e12 for a in asks])),
        "quality": {"accuracy": sum(correct) / len(correct), "n_probes": len(correct),
                    "ci95": list(stats.wilson(sum(correct), len(correct))),
                    "f1": statistics.fmean(a["probes"][0]["f1"] for a in asks)},
    }


def recommended(points: dict[int, dict]) -> int:
    """The cheapest group size in priced seconds among those inside the gate. Sizes whose seconds are the same
    within measurement (their ranges at each size's lowest and highest measured rate overlap the cheapest's) are
    told apart by their ledger FLOPs, which do not move with the machine's load."""
    inside = [size for size, p in points.items() if p["quality"]["gate"] in ("within", "none")]
    ranges = {size: stats.Spread(**points[size]["rate"]).scaled(points[size]["seconds"]) for size in inside}
    cheapest = min(inside, key=lambda size: points[size]["seconds"])
    tied = [size for size in inside if stats.same_within_measurement(ranges[size], ranges[cheapest])]
    return min(tied, key=lambda size: (points[size]["flops"], size))
