"""Starting a group-size sweep (engine.evaluation.group_sweep) of a workload, cancelling it and trying it again, as
runs are, and reading its recommendation."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from engine.core import run_settings
from engine.core.errors import EngineError
from engine.core.probes import PLAIN_KINDS
from workloads.comparisons import fit
from workloads.models import GroupSweep, Workload
from workloads.models.jobs import UNFINISHED_STATUSES
from workloads.organisations import quotas
from workloads.workers import dispatch

# The sweep varies the group size; the other attention settings and the gate are the workload's.
KEPT = ("window", "topk", "global_blocks", "indexer", "gate_points")
RETRYABLE = (GroupSweep.Status.FAILED, GroupSweep.Status.CANCELLED)


def start_sweep(workload: Workload, user, group_sizes=run_settings.GROUP_SIZES) -> GroupSweep:
    """Queue a sweep at the workload's saved run settings (those of its last comparison started by hand), or the
    defaults. Refused with a reason when it could not answer: no documents, no probes, documents longer than the
    model, a sweep of this workload still to finish, a group size out of bounds, or the organisation's quota of runs
    queued at once reached (a sweep takes a place as a run does: workloads.organisations.quotas)."""
    sizes = list(dict.fromkeys(group_sizes))
    low, high = run_settings.LIMITS["group_size"]
    if not sizes or any(not isinstance(s, int) or isinstance(s, bool) or not low <= s <= high for s in sizes):
        raise ValidationError(f"group sizes must be whole numbers from {low} to {high}")
    if not workload.documents.exists():
        raise ValidationError("the workload has no documents yet: upload some first")
    if not workload.probes.exists():
        raise ValidationError("the workload has no probes yet: add or generate questions first")
    quotas.check_runs(workload.organisation)
    saved = {k: v for k, v in (workload.run_settings or {}).items() if k in KEPT}
    try:
        settled = run_settings.check_values(saved)
    except EngineError as exc:
        raise ValidationError(str(exc)) from exc
    plan = fit.preflight(workload, ["full_index_share"], saved)
    if plan.every_full_context_refuses:
        raise ValidationError(plan.refusal_warning)
    with transaction.atomic():
        quotas.admit_runs(workload.organisation)
        _refuse_a_second(workload)
        sweep = GroupSweep.objects.create(workload=workload, created_by=user, model=workload.target_model,
                                          group_sizes=sizes, settings={k: settled[k] for k in KEPT},
                                          progress_total=_asks(sizes, workload.probes.count()))
        dispatch.queue_group_sweep(sweep.pk)
    return sweep


def _refuse_a_second(workload: Workload, other_than: int | None = None) -> None:
    """One sweep of a workload at a time: two would share the worker's device and time each other. The workload's
    row stays locked until the caller's transaction ends, so that two requests cannot both find none."""
    Workload.objects.select_for_update().filter(pk=workload.pk).exists()
    if workload.group_sweeps.filter(status__in=UNFINISHED_STATUSES).exclude(pk=other_than).exists():
        raise ValidationError("a group-size sweep of this workload is still to finish: wait for it, or cancel it")


def cancel_sweep(sweep: GroupSweep) -> bool:
    """Cancel a queued or running sweep; whether it was still unfinished. A running one stops before its next
    question (workloads.tasks.run_group_sweep) and keeps no report."""
    return GroupSweep.cancel(sweep.pk, GroupSweep.Status.CANCELLED)


def retry_sweep(sweep: GroupSweep) -> bool:
    """Queue a failed or cancelled sweep again, at its group sizes and settings, on the workload's documents and
    probes as they are then; whether it was one. Raises ValidationError while another sweep of the workload is
    still to finish, and quotas.QuotaExceeded past the organisation's quota of runs queued at once."""
    with transaction.atomic():
        if GroupSweep.objects.filter(pk=sweep.pk, status__in=RETRYABLE).exists():
            quotas.admit_runs(sweep.workload.organisation)  # a sweep takes a place as a run does
        _refuse_a_second(sweep.workload, other_than=sweep.pk)
        again = GroupSweep.requeue(sweep.pk, RETRYABLE, progress_done=0, report=None, device="")
        if again:
            dispatch.queue_group_sweep(sweep.pk)
    return bool(again)


def _asks(sizes: list[int], n_probes: int) -> int:
    """At most: every size uniform, and calibrated above 1. The worker corrects it once it knows which
    calibrated arms differ from the uniform ones."""
    return (len(sizes) + sum(size > 1 for size in sizes)) * n_probes


def arms(report: dict | None) -> list[dict]:
    """The report's arms, each with its name, whether its anchor layers were calibrated, and whether it is the
    recommended one. Sweeps from before calibration named no arm and recommended a group size."""
    if not report:
        return []
    chosen = report["recommended"]
    out = []
    for point in report["points"]:
        name = point.get("name", f"G={point['group_size']}")
        is_chosen = chosen == name if isinstance(chosen, str) else chosen == point["group_size"]
        out.append({**point, "name": name, "calibrated": point.get("calibrated", False), "recommended": is_chosen})
    return out


def kinds(points: list[dict]) -> tuple[list[str], list[tuple[dict, list[dict | None]]]]:
    """Each arm's right answers per kind of question, the kinds in the order a manager reads them; none for sweeps
    from before kinds were counted."""
    kinds_in_order = [k for k in PLAIN_KINDS if any(k in (p["quality"].get("by_kind") or {}) for p in points)]
    return kinds_in_order, [(p, [(p["quality"].get("by_kind") or {}).get(k) for k in kinds_in_order]) for p in points]


def recommendation(sweep: GroupSweep) -> str | None:
    """The sweep's answer in one sentence, from its stored report; None until it has one."""
    points = arms(sweep.report)
    if not points:
        return None
    best = next(p for p in points if p["recommended"])
    cheaper = [p for p in points if p is not best and p["flops"] < best["flops"]]
    why = (f"; sharing more widely ({', '.join(p['name'] for p in cheaper)}) costs less but falls outside "
           f"the {sweep.report['gate_points']:g}-point quality gate or cannot be told apart from it yet" if cheaper
           else ": no larger group would cost less")
    size = best["group_size"]
    where = (f", in calibrated groups (the indexer runs at layers "
             f"{', '.join(map(str, best['anchors']))})" if best["calibrated"] else "")
    return (f"Share each indexer across {size} layer{'s' if size != 1 else ''}{where}: "
            f"{sum(best['correct'])} of {best['quality']['n_probes']} questions right ({_percent(best)}), at "
            f"{best['flops'] / 1e12:.3g} "
            f"ledger TFLOP and {best['seconds']:.3g} s for the probes{why}.")


def _percent(point: dict) -> str:
    low, high = point["quality"]["ci95"]
    return f"{point['quality']['accuracy']:.0%}, 95% interval {low:.0%}–{high:.0%}"
