"""A group-size sweep: whole documents with Index Share at several group sizes, on one workload's probes.

The article leaves open whether sharing the indexer across 4 layers is the sweet spot. A larger group runs the
indexer less often and so costs less, and its later layers reuse a selection made further away, which may cost
accuracy. The sweep measures both per workload, and recommends the smallest cost whose accuracy stays inside the
quality gate against the most accurate group size.

Each size is asked twice where it matters: with uniform groups (every G-th sparse layer runs the indexer) and with
the model's calibrated anchor layers (engine.evaluation.calibration: as many groups, each starting where its selection
best covers the attention of the layers that reuse it). Each of these arms is asked every probe, interleaved probe by
probe (probe i starts with arm i mod k), as a comparison interleaves its strategies: a burst of load on the machine
then falls on every arm alike. Each ask is a one-probe engine.strategies.compare of full_index_share, so its seconds,
FLOPs and grading are exactly a comparison's.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from engine.evaluation import calibration
from engine.core import stats
from engine.attention import AttentionConfig, LayerPlan
from engine.strategies.compare import compare
from engine.strategies.work import ComparisonWork
from engine.strategies.prompts import documents_prompt
from engine.core.documents import DocumentText
from engine.core.errors import EngineError
from engine.model.loader import LoadedModel
from engine.core.probes import KIND_NAMES, ProbeQuestion
from engine.core.run_settings import GROUP_SIZES

STRATEGY = "full_index_share"
Progress = Callable[[int, int, str], None]  # (asks done, asks planned, what is running)


@dataclass(frozen=True)
class Arm:
    """One setting the sweep asks: a group size, with uniform groups or calibrated anchor layers (on the workload's
    documents, as comparison runs calibrate by default, or on the model's calibration text where they are too
    short)."""

    group_size: int
    calibrated: bool
    config: AttentionConfig
    anchors: tuple[int, ...]  # the layers that run the indexer

    @property
    def name(self) -> str:
        return f"G={self.group_size}" + (" calibrated" if self.calibrated else "")


def sweep(lm: LoadedModel, documents: Sequence[DocumentText], probes: Sequence[ProbeQuestion],
          attention: AttentionConfig, group_sizes: Sequence[int] = GROUP_SIZES, gate_points: float = 5.0,
          progress: Progress | None = None, calibrate: bool = True) -> dict:
    """Ask every probe at every group size, with uniform groups and (calibrate=True) with anchor layers calibrated
    as a comparison run's default calibrates them (engine.evaluation.calibration.for_run, anchors=workload); return
    each arm's accuracy (with its 95% interval and its gate against the best arm), FLOPs and priced seconds, and the
    recommended arm."""
    sizes = list(dict.fromkeys(group_sizes))
    if not sizes or not probes:
        raise EngineError("a sweep needs at least one group size and one probe")
    arms, calibration_note = _arms(lm, attention, sizes, documents_prompt(lm, documents) if calibrate else None)
    asks, order = {arm.name: [] for arm in arms}, []
    planned = len(arms) * len(probes)
    for i, probe in enumerate(probes):
        for arm in arms[i % len(arms):] + arms[:i % len(arms)]:
            if progress:
                progress(len(order), planned, f"{arm.name}: {probe.question[:80]}")
            work = ComparisonWork(documents, [probe], strategies=(STRATEGY,), diagnostics=False, attention=arm.config,
                            anchors="calibrated" if arm.calibrated else "uniform")
            asks[arm.name].append(compare(lm, work)["strategies"][STRATEGY])
            order.append(arm.name)
    refused = [a[0]["refused"] for a in asks.values() if a[0].get("refused")]
    if refused:  # the documents do not fit the model: every arm refuses alike
        raise EngineError(f"whole documents refused: {refused[0]}")
    points = {arm.name: _point(arm, asks[arm.name]) for arm in arms}
    gates = stats.gates({name: p["correct"] for name, p in points.items()}, gate_points)
    for name, point in points.items():
        gate = gates[name]
        point["quality"] |= {"gate": gate.call, "points_below": gate.points_below, "mcnemar_p": gate.p_value,
                             "probes_to_tell": gate.probes_to_tell}
    return {
        "model": lm.name, "strategy": STRATEGY, "probes": len(probes), "gate_points": gate_points,
        "attention": {k: v for k, v in vars(attention).items() if k not in ("group_size", "anchor_layers")},
        "calibration": calibration_note,
        "order": order,
        "points": list(points.values()),
        "recommended": recommended(points),
    }


def _arms(lm: LoadedModel, attention: AttentionConfig, sizes: list[int],
          workload_ids: list[int] | None) -> tuple[list[Arm], str]:
    """The uniform arm of every size, each followed by its calibrated arm where calibration (on workload_ids, the
    documents' prompt; None: not asked) moves an anchor (it cannot at a group size of 1, or where the sparse layers
    make one group); and what calibration did."""
    arms, moved, used = [], [], ""
    for size in sizes:
        uniform = attention.replace(group_size=size, mode="index_share", anchor_layers=None)  # checks each size
        anchors = _indexer_layers(lm, uniform)
        arms.append(Arm(size, False, uniform, anchors))
        if workload_ids is None or used.startswith("uniform") or size == 1:
            continue
        tuned, used = calibration.for_run(lm, uniform, "workload", workload_ids)
        if tuned.anchor_layers is not None and tuned.anchor_layers != anchors:
            arms.append(Arm(size, True, tuned, tuned.anchor_layers))
            moved.append(size)
    on = "the workload's documents" if used == "workload" else (
        "the model's calibration text: " + used.removeprefix("calibrated: "))
    if workload_ids is None:
        note = "not asked for"
    elif used.startswith("uniform"):  # too few sparse layers, or a window wider than both texts leave room for
        note = f"not run: {used}"
    elif moved:
        note = f"calibrated anchor layers asked at group size {', '.join(map(str, moved))}, calibrated on {on}"
    else:
        note = "calibration kept the uniform groups at every size, so no calibrated arm was asked"
    return arms, note


def _indexer_layers(lm: LoadedModel, cfg: AttentionConfig) -> tuple[int, ...]:
    return LayerPlan.build(cfg, lm.n_layers, lm.native_window_layers()).indexer_layers


def _point(arm: Arm, asks: list[dict]) -> dict:
    correct = [a["probes"][0]["correct"] for a in asks]
    seconds = sum(a["seconds"] for a in asks)
    flops = sum(a["flops"]["total"] for a in asks)
    return {
        "name": arm.name, "group_size": arm.group_size, "calibrated": arm.calibrated, "anchors": list(arm.anchors),
        "correct": correct, "seconds": seconds, "flops": flops,
        "flops_indexer": sum(a["flops"]["indexer"] for a in asks),
        "rate": asdict(stats.Spread.of([a["seconds"] / a["flops"]["total"] * 1e12 for a in asks])),
        "quality": {"accuracy": sum(correct) / len(correct), "n_probes": len(correct),
                    "ci95": list(stats.wilson(sum(correct), len(correct))),
                    "f1": statistics.fmean(a["probes"][0]["f1"] for a in asks),
                    # Is 4 the sweet spot for every kind of question? Joins may need smaller groups than lookups.
                    "by_kind": stats.by_kind([a["probes"][0] for a in asks], KIND_NAMES)},
    }


def recommended(points: dict[str, dict]) -> str:
    """The name of the cheapest arm in priced seconds among those inside the gate. Arms whose seconds are the same
    within measurement (their ranges at each arm's lowest and highest measured rate overlap the cheapest's) are
    told apart by their ledger FLOPs, which do not move with the machine's load, then by the smaller group and
    uniform groups before calibrated ones (the simpler setting when nothing measured tells them apart)."""
    inside = [name for name, p in points.items() if p["quality"]["gate"] in ("within", "none")]
    ranges = {name: stats.Spread(**points[name]["rate"]).scaled(points[name]["seconds"]) for name in inside}
    cheapest = min(inside, key=lambda name: points[name]["seconds"])
    tied = [name for name in inside if stats.same_within_measurement(ranges[name], ranges[cheapest])]
    return min(tied, key=lambda name: (points[name]["flops"], points[name]["group_size"], points[name]["calibrated"]))
