"""Starting a group-size sweep (engine.group_sweep) of a workload, and reading its recommendation."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from engine import run_settings
from engine.errors import EngineError
from workloads import dispatch
from workloads.comparisons import fit
from workloads.models import GroupSweep, Workload
from workloads.models.jobs import UNFINISHED_STATUSES

# The sweep varies the group size; the other attention settings and the gate are the workload's.
KEPT = ("window", "topk", "global_blocks", "indexer", "gate_points")


def start_sweep(workload: Workload, user, group_sizes=run_settings.GROUP_SIZES) -> GroupSweep:
    """Queue a sweep at the workload's saved run settings (those of its last comparison started by hand), or the
    defaults. Refused with a reason when it could not answer: no documents, no probes, documents longer than the
    model, a sweep of this workload still to finish, or a group size out of bounds."""
    sizes = list(dict.fromkeys(group_sizes))
    low, high = run_settings.LIMITS["group_size"]
    if not sizes or any(not isinstance(s, int) or isinstance(s, bool) or not low <= s <= high for s in sizes):
        raise ValidationError(f"group sizes must be whole numbers from {low} to {high}")
    if not workload.documents.exists():
        raise ValidationError("the workload has no documents yet: upload some first")
    if not workload.probes.exists():
        raise ValidationError("the workload has no probes yet: add or generate questions first")
    saved = {k: v for k, v in (workload.run_settings or {}).items() if k in KEPT}
    try:
        settled = run_settings.check_values(saved)
    except EngineError as exc:
        raise ValidationError(str(exc)) from exc
    plan = fit.preflight(workload, ["full_index_share"], saved)
    if plan.every_full_context_refuses:
        raise ValidationError(plan.refusal_warning)
    with transaction.atomic():
        if workload.group_sweeps.select_for_update().filter(status__in=UNFINISHED_STATUSES).exists():
            raise ValidationError("a group-size sweep of this workload is still to finish: wait for it")
        sweep = GroupSweep.objects.create(workload=workload, created_by=user, model=workload.target_model,
                                          group_sizes=sizes, settings={k: settled[k] for k in KEPT},
                                          progress_total=len(sizes) * workload.probes.count())
        dispatch.queue_group_sweep(sweep.pk)
    return sweep


def recommendation(sweep: GroupSweep) -> str | None:
    """The sweep's answer in one sentence, from its stored report; None until it has one."""
    report = sweep.report
    if not report:
        return None
    points = {p["group_size"]: p for p in report["points"]}
    best = points[report["recommended"]]
    others = [p for size, p in points.items() if size != report["recommended"]]
    cheaper = [p for p in others if p["flops"] < best["flops"]]
    why = (f"; sharing more widely ({', '.join(str(p['group_size']) for p in cheaper)}) costs less but falls outside "
           f"the {report['gate_points']:g}-point quality gate or cannot be told apart from it yet" if cheaper else
           ": no larger group would cost less")
    return (f"Share each indexer across {best['group_size']} layer{'s' if best['group_size'] != 1 else ''}: "
            f"{sum(best['correct'])} of {best['quality']['n_probes']} questions right ({_percent(best)}), at "
            f"{best['flops'] / 1e12:.3g} "
            f"ledger TFLOP and {best['seconds']:.3g} s for the probes{why}.")


def _percent(point: dict) -> str:
    low, high = point["quality"]["ci95"]
    return f"{point['quality']['accuracy']:.0%}, 95% interval {low:.0%}–{high:.0%}"
