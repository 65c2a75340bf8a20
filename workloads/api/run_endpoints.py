"""Comparison runs: start, follow, cancel, re-price, delete, and export as CSV."""

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from ninja import Query, Router, Status
from ninja.errors import HttpError

from workloads import deletion
from workloads.api.error_responses import CONFLICT, ERRORS, QUOTA
from workloads.api.schemas import RunDetailOut, RunIn, RunOut
from workloads.api.workload_endpoints import workload_of
from workloads.comparisons import pricing, run_columns
from workloads.comparisons.starting import SETTINGS, NotConfirmed, cancel_run, retry_run, start_run
from workloads.models import ComparisonRun, Endpoint, GpuPrice, Role, RunPricing, StrategyResult
from workloads.organisations.access import organisation_of
from workloads.organisations.quotas import QuotaExceeded
from workloads.reporting.data_exports import download, history_csv

router = Router(tags=["runs"])


def run_out(run: ComparisonRun) -> dict:
    return {
        "id": run.pk, "workload_id": run.workload_id, "trigger": run.trigger, "period": run.period,
        "status": run.status, "strategies": run.strategies,
        "model": run.model, "settings": {name: getattr(run, name) for name in SETTINGS},
        "units_of_work": run.units_of_work,
        "progress": {"done": run.progress_done, "total": run.progress_total, "percent": run.progress_percent,
                     "message": run.progress_message},
        "error": run.error, "created_at": run.created_at, "started_at": run.started_at,
        "finished_at": run.finished_at, "device": run.device, "api_provider": run.api_provider,
        "api_model": run.api_model, "pricing_error": run.pricing_error,
        "priced_at": run.priced_at, "endpoint_id": run.endpoint_id, "reader": run.reader,
        "batch": str(run.batch) if run.batch else None, "stopped": run.stopped,
    }


def _result_out(result: StrategyResult, answers: bool, reported: dict) -> dict:
    """The result's columns, and from the engine's report of it (`reported`) its accuracy per kind."""
    out = {f.name: getattr(result, f.name) for f in StrategyResult._meta.concrete_fields if f.name not in ("id", "run")}
    out |= {"unit_device_dollars": result.unit_device_dollars, "unit_api_dollars": result.unit_api_dollars,
            "by_kind": _by_kind((reported.get("quality") or {}).get("by_kind"))}
    if answers:
        out["answers"] = [{"probe_id": a.probe_id, "question": a.question, "expected": a.expected, "kind": a.kind,
                           "output": a.output, "correct": a.correct} for a in result.answers.all()]
    return out


def _by_kind(reported: dict | None) -> dict | None:
    """The engine's accuracy per kind; runs measured before it counted each kind's questions gave a share alone."""
    if not reported or not all(isinstance(v, dict) for v in reported.values()):
        return None
    return reported


def _price_out(entry: GpuPrice | None) -> dict | None:
    if entry is None:
        return None
    return {f.name: getattr(entry, f.name) for f in entry._meta.concrete_fields if f.name != "organisation"}


def _pricing_out(kept: RunPricing) -> dict:
    return {"kind": kept.kind, "label": kept.label, "created_at": kept.created_at,
            "created_by": kept.created_by.username if kept.created_by else None, "gpu_price_id": kept.gpu_price_id,
            "api_price_id": kept.api_price_id, "api_provider": kept.api_provider, "api_model": kept.api_model,
            "error": kept.error, "dollars": kept.dollars}


def run_detail_out(run: ComparisonRun, answers: bool = False) -> dict:
    results = run.results.all()
    if answers:
        results = results.prefetch_related("answers")
    return run_out(run) | {
        "versions": run.versions or {},
        "prices": {"gpu": _price_out(run.gpu_price), "api": _price_out(run.api_price)},
        "results": [_result_out(r, answers, ((run.report or {}).get("strategies") or {}).get(r.strategy) or {})
                    for r in results],
        "pricings": [_pricing_out(p) for p in run.pricings.select_related("created_by")],
        "changes": run.changes,
        "alerts": [{"kind": a.kind, "strategy": a.strategy, "message": a.message} for a in run.alerts.all()],
    }


def run_of(request, pk: int, needs: Role = Role.VIEWER) -> ComparisonRun:
    """The run if its workload is in the token user's organisation and their role allows `needs`; 404 if it
    is not theirs, 403 if their role does not allow it."""
    runs = ComparisonRun.objects.select_related("workload", "gpu_price", "api_price")
    return get_object_or_404(runs, pk=pk, workload__organisation=organisation_of(request.auth, needs))


@router.post("/workloads/{workload_id}/runs", response={202: RunDetailOut, **ERRORS, **QUOTA},
             summary="Queue a comparison of strategies on the workload's documents and probes as they are now "
                     "(429 past the organisation's quota of runs queued at once: one place per reader)")
def start(request, workload_id: int, payload: RunIn | None = None):
    workload = workload_of(request, workload_id, Role.MEMBER)
    payload = payload if payload is not None else RunIn()  # no body at all: every default
    settings = payload.dict(exclude={"strategies", "confirm_refusals", "confirm_duration", "engine", "endpoint_ids"},
                            exclude_none=True)
    endpoints = list(Endpoint.objects.filter(organisation=workload.organisation, pk__in=payload.endpoint_ids))
    missing = set(payload.endpoint_ids) - {e.pk for e in endpoints}
    if missing:
        raise HttpError(404, f"no endpoint {', '.join(map(str, sorted(missing)))} in your organisation")
    try:
        run = start_run(workload, request.auth, payload.strategies, confirm_refusals=payload.confirm_refusals,
                        confirm_duration=payload.confirm_duration, engine=payload.engine, endpoints=endpoints,
                        **settings)
    except NotConfirmed as exc:
        raise HttpError(400, f"{exc.message}: send \"{exc.flag}\": true to start it anyway") from None
    return Status(202, run_detail_out(run_of(request, run.pk)))


@router.get("/workloads/{workload_id}/runs", response={200: list[RunOut], **ERRORS},
            summary="The workload's runs, newest first")
def list_runs(request, workload_id: int):
    return [run_out(run) for run in workload_of(request, workload_id).runs.defer(*run_columns.JSON)]


@router.get("/workloads/{workload_id}/runs.csv", response={200: None, **ERRORS},
            summary="The workload's runs as CSV: one row per run and strategy",
            openapi_extra={"responses": {200: {"description": "CSV, one row per run × strategy",
                                               "content": {"text/csv": {"schema": {"type": "string"}}}}}})
def export_runs(request, workload_id: int):
    workload = workload_of(request, workload_id)
    return download(history_csv(workload), "text/csv", f"workload-{workload.pk}-runs.csv")


@router.get("/runs/{run_id}", response={200: RunDetailOut, **ERRORS},
            summary="A run: status, progress, what produced it, the prices used and each strategy's results")
def get_run(request, run_id: int, answers: bool = Query(False, description="include each probe's answer")):
    return run_detail_out(run_of(request, run_id), answers=answers)


@router.post("/runs/{run_id}/cancel", response={200: RunOut, **ERRORS, **CONFLICT},
             summary="Cancel a queued or running run (409 once it has finished)")
def cancel(request, run_id: int):
    run = run_of(request, run_id, Role.MEMBER)
    if not cancel_run(run):
        run.refresh_from_db(fields=["status"])
        raise HttpError(409, f"run {run.pk} has already finished: it is {run.status}")
    run.refresh_from_db()
    return run_out(run)


@router.post("/runs/{run_id}/retry", response={200: RunOut, **ERRORS, **CONFLICT, **QUOTA},
             summary="Queue a failed run again with the same settings (409 unless it failed, 429 past the "
                     "organisation's quota of runs queued at once)")
def retry(request, run_id: int):
    run = run_of(request, run_id, Role.MEMBER)
    try:
        retried = retry_run(run)
    except QuotaExceeded:
        raise  # 429, from the API's handler
    except ValidationError as exc:
        raise HttpError(409, exc.messages[0]) from exc
    if not retried:
        raise HttpError(409, f"run {run.pk} is {run.status}: only a failed run is retried")
    run.refresh_from_db()
    return run_out(run)


@router.post("/runs/{run_id}/reprice", response={200: RunDetailOut, **ERRORS, **CONFLICT},
             summary="Price a succeeded run again with the price book entries in force on its date and the API model "
                     "it was queued with (admins): a new pricing, kept beside the earlier ones")
def reprice(request, run_id: int):
    run = run_of(request, run_id, Role.ADMIN)
    if run.status != ComparisonRun.Status.SUCCEEDED:
        raise HttpError(409, f"only a succeeded run can be priced; run {run.pk} is {run.status}")
    pricing.price_run(run, by=request.auth)
    return run_detail_out(run_of(request, run.pk))


@router.delete("/runs/{run_id}", response={204: None, **ERRORS, **CONFLICT},
               summary="Delete a finished run with its results, PDF summaries and mails (admins; 409 while it is "
                       "queued or running); the runs compared with it are compared with the run before it")
def delete(request, run_id: int):
    try:
        deletion.delete_run(run_of(request, run_id, Role.ADMIN))
    except ValidationError as exc:
        raise HttpError(409, exc.messages[0]) from None
    return Status(204, None)
