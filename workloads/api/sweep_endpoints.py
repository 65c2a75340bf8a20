"""Group-size sweeps (how many layers can share one indexer, for a workload): start, follow, cancel and retry, as
runs are."""

from django.core.exceptions import ValidationError
from ninja import Router, Status
from ninja.errors import HttpError

from workloads.api.error_responses import CONFLICT, ERRORS, QUOTA
from workloads.api.schemas import SweepDetailOut, SweepIn, SweepOut
from workloads.api.workload_endpoints import workload_of
from workloads.comparisons import sweep_starting
from workloads.models import GroupSweep, Role
from workloads.organisations.access import sweep_for
from workloads.organisations.quotas import QuotaExceeded

router = Router(tags=["sweeps"])


def sweep_out(sweep: GroupSweep) -> dict:
    return {
        "id": sweep.pk, "workload_id": sweep.workload_id, "status": sweep.status, "model": sweep.model,
        "group_sizes": sweep.group_sizes, "settings": sweep.settings, "device": sweep.device,
        "progress": {"done": sweep.progress_done, "total": sweep.progress_total}, "error": sweep.error,
        "created_at": sweep.created_at, "started_at": sweep.started_at, "finished_at": sweep.finished_at,
        "recommendation": sweep_starting.recommendation(sweep),
    }


def sweep_detail_out(sweep: GroupSweep) -> dict:
    return sweep_out(sweep) | {"report": sweep.report}


@router.post("/workloads/{workload_id}/sweeps", response={202: SweepDetailOut, **ERRORS, **QUOTA},
             summary="Queue a group-size sweep: every probe asked with Index Share at each group size, on whole "
                     "documents, at the workload's saved attention settings (400 while another is unfinished, 429 "
                     "past the organisation's quota of runs queued at once)")
def start(request, workload_id: int, payload: SweepIn | None = None):
    workload = workload_of(request, workload_id, Role.MEMBER)
    payload = payload if payload is not None else SweepIn()  # no body at all: the default sizes
    sweep = sweep_starting.start_sweep(workload, request.auth, payload.group_sizes)
    return Status(202, sweep_detail_out(sweep_for(request.auth, sweep.pk)))


@router.get("/workloads/{workload_id}/sweeps", response={200: list[SweepOut], **ERRORS},
            summary="The workload's group-size sweeps, newest first")
def list_sweeps(request, workload_id: int):
    return [sweep_out(sweep) for sweep in workload_of(request, workload_id).group_sweeps.defer("report")]


@router.get("/sweeps/{sweep_id}", response={200: SweepDetailOut, **ERRORS},
            summary="A group-size sweep: status, progress, and once it succeeded its report and recommendation")
def get_sweep(request, sweep_id: int):
    return sweep_detail_out(sweep_for(request.auth, sweep_id))


@router.post("/sweeps/{sweep_id}/cancel", response={200: SweepOut, **ERRORS, **CONFLICT},
             summary="Cancel a queued or running sweep; a running one stops before its next question and keeps no "
                     "report (409 once it has finished)")
def cancel(request, sweep_id: int):
    sweep = sweep_for(request.auth, sweep_id, Role.MEMBER)
    if not sweep_starting.cancel_sweep(sweep):
        sweep.refresh_from_db(fields=["status"])
        raise HttpError(409, f"sweep {sweep.pk} has already finished: it is {sweep.status}")
    sweep.refresh_from_db()
    return sweep_out(sweep)


@router.post("/sweeps/{sweep_id}/retry", response={200: SweepOut, **ERRORS, **CONFLICT, **QUOTA},
             summary="Queue a failed or cancelled sweep again at the same group sizes and settings (409 otherwise, "
                     "or while another sweep of its workload is unfinished; 429 past the organisation's quota of "
                     "runs queued at once)")
def retry(request, sweep_id: int):
    sweep = sweep_for(request.auth, sweep_id, Role.MEMBER)
    try:
        retried = sweep_starting.retry_sweep(sweep)
    except QuotaExceeded:
        raise  # 429, from the API's handler
    except ValidationError as exc:
        raise HttpError(409, exc.messages[0]) from exc
    if not retried:
        raise HttpError(409, f"sweep {sweep.pk} is {sweep.status}: only a failed or cancelled sweep is retried")
    sweep.refresh_from_db()
    return sweep_out(sweep)
