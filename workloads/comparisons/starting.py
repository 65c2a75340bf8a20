"""Starting, cancelling and retrying comparison runs."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from engine.core import run_settings
from engine.core.errors import EngineError
from engine.core.model_metadata import read_metadata
from workloads.comparisons import endpoint_spending, fit, pricing, queued_inputs, shards
from workloads.comparisons.target_models import model_path
from workloads.models import ComparisonRun, Endpoint, Workload, periods
from workloads.models.jobs import UNFINISHED_STATUSES
from workloads.organisations import quotas
from workloads.workers import dispatch
from workloads.workers.recovery import clear_partial_run

DEFAULT_STRATEGIES = list(run_settings.DEFAULT_STRATEGIES)
SETTINGS = tuple(run_settings.DEFAULTS)


def check_settings(strategies: list[str], values: dict, model: str) -> None:
    """Refuse settings the worker would refuse, before they are queued or saved for the schedule."""
    if not strategies:
        raise ValidationError("choose at least one strategy")
    try:
        run_settings.check_strategies(strategies)
        # Unset values are the run's defaults: a chunk of 32 tokens with the default overlap of 64 cannot work.
        settled = run_settings.check_values(values)
        run_settings.check_chunk_tokens(settled["chunk_tokens"], read_metadata(model_path(model)).max_positions)
    except EngineError as exc:
        raise ValidationError(str(exc)) from exc


class NotConfirmed(ValidationError):
    """A manual start the user must confirm first; `flag` is the form field and API field that confirms it."""

    flag = ""
    consequence = ""  # what starting anyway means, for the form's box


class RefusalsNotConfirmed(NotConfirmed):
    """Every full-context strategy chosen would refuse, and the user has not said to start anyway."""

    flag, consequence = "confirm_refusals", "and measure chunking alone"


class DurationNotConfirmed(NotConfirmed):
    """The run would take longer than fit.CONFIRM_ABOVE_S, and the user has not said to start anyway."""

    flag, consequence = "confirm_duration", "knowing how long it takes"


def start_run(workload: Workload, user, strategies: list[str] | None = None,
              trigger: str = ComparisonRun.Trigger.MANUAL, confirm_refusals: bool = False,
              confirm_duration: bool = False, endpoints: Sequence[Endpoint] = (), engine: bool = True,
              past_quota: bool = False, **values) -> ComparisonRun:
    """Queue a comparison of the workload's documents and probes; the worker reads them as they are
    when it starts, and counts the run's units of work again then. It refuses the run if any document or probe
    it was queued with has been deleted meanwhile (workloads.comparisons.queued_inputs).

    A run a user starts also saves its strategies, settings and readers as the ones the schedule uses next. When every
    full-context strategy it chose would refuse (workloads.comparisons.fit), it is queued only with confirm_refusals:
    such a run measures chunking alone; when it would take longer than fit.CONFIRM_ABOVE_S, only with
    confirm_duration. A scheduled run has nobody to ask; its results record the refusals.

    The readers: this worker's engine (`engine`) and each of `endpoints`, one run each, queued as one batch that the
    run page reads side by side (workloads.comparisons.batches); the first is returned. An endpoint asks the
    strategies it can (engine.core.run_settings.through_endpoint).

    Each reader's run takes a place in the organisation's quota of runs queued at once
    (workloads.organisations.quotas); past it, the start is refused, unless `past_quota`: beat's scheduled runs, one
    per reader and period, are queued even then, and count.
    """
    strategies = list(dict.fromkeys(strategies or DEFAULT_STRATEGIES))
    values = {k: v for k, v in values.items() if v is not None}
    unexpected = set(values) - set(SETTINGS)
    if unexpected:
        raise ValidationError(f"unknown setting {', '.join(sorted(unexpected))}")
    check_settings(strategies, values, workload.target_model)
    if not workload.documents.exists():
        raise ValidationError("the workload has no documents yet: upload some first")
    if not workload.probes.exists():
        raise ValidationError("the workload has no probes yet: add or generate questions first")
    try:  # the API price must exist now; the device's is checked by the worker that knows its device
        pricing.workload_api_price(workload, periods.today(workload))
    except pricing.PricingError as exc:
        raise ValidationError(str(exc)) from exc
    _check_readers(workload, endpoints, engine, strategies, values)
    readers = ([None] if engine else []) + list(endpoints)  # None: this worker's engine
    if not past_quota:  # at once, before the user is asked to confirm anything
        quotas.check_runs(workload.organisation, len(readers))
    if engine and trigger == ComparisonRun.Trigger.MANUAL and not (confirm_refusals and confirm_duration):
        plan = fit.preflight(workload, strategies, values)
        if plan.every_full_context_refuses and not confirm_refusals:
            raise RefusalsNotConfirmed(plan.refusal_warning)
        if plan.needs_confirmation and not confirm_duration:
            raise DurationNotConfirmed(plan.duration_warning)
    batch = uuid.uuid4() if len(readers) > 1 else None
    with transaction.atomic():
        if not past_quota:
            quotas.admit_runs(workload.organisation, len(readers))
        runs = [ComparisonRun.objects.create(
            workload=workload, created_by=user, trigger=trigger, model=workload.target_model, batch=batch,
            units_of_work=workload.units_of_work(), queued_with=queued_inputs.record(workload), **values,
            **({"strategies": strategies} if endpoint is None else _through(endpoint, strategies)))
            for endpoint in readers]
        if trigger == ComparisonRun.Trigger.MANUAL:
            workload.run_settings = {"strategies": strategies, **values, "engine": engine,
                                     "endpoint_ids": [e.pk for e in endpoints]}
            workload.save(update_fields=["run_settings"])
        for run in runs:
            shards.split_run(run)  # a run of many questions is asked by many workers at once
            dispatch.queue_comparison(run.pk)
    return runs[0]


def saved_readers(workload: Workload) -> dict:
    """The readers the workload's last manual start chose, as start_run takes them, for its schedule: this worker's
    engine unless it was left out, and the endpoints chosen that still exist."""
    saved = workload.run_settings if isinstance(workload.run_settings, dict) else {}
    ids = saved.get("endpoint_ids")
    ids = [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else []
    endpoints = list(Endpoint.objects.filter(organisation=workload.organisation, pk__in=ids))
    return {"engine": saved.get("engine") is not False or not endpoints, "endpoints": endpoints}


def _check_readers(workload: Workload, endpoints: Sequence[Endpoint], engine: bool, strategies: list[str],
                   values: dict) -> None:
    """Refuse no reader, another organisation's endpoint, and a run through an endpoint whose estimate passes a
    spending cap (workloads.comparisons.endpoint_spending)."""
    if not engine and not endpoints:
        raise ValidationError("choose who reads the documents: this worker's engine, an endpoint, or both")
    if any(endpoint.organisation_id != workload.organisation_id for endpoint in endpoints):
        raise ValidationError("no such endpoint")
    for endpoint in endpoints:
        if endpoint.price is not None:
            try:
                endpoint_spending.check(workload.organisation,
                                        endpoint_spending.planned(workload, strategies, values, endpoint.price))
            except endpoint_spending.OverCap as exc:
                raise ValidationError(f"through {endpoint.name}, {exc}") from exc


def _through(endpoint: Endpoint, strategies: list[str]) -> dict:
    """A run's fields through an endpoint: the strategies it asks, who it is, and the entry its tokens are billed at
    (none: the run is not priced, never $0)."""
    price = endpoint.price
    return {"strategies": run_settings.through_endpoint(strategies), "endpoint": endpoint, "reader": endpoint.reader,
            "api_provider": price.provider if price else "", "api_model": price.model if price else ""}


def waiting_twin(workload: Workload, strategies: list[str], values: dict) -> ComparisonRun | None:
    """The workload's queued or running run with these very strategies and settings: starting another repeats it
    (a tester's identical second comparison was queued silently behind the first)."""
    settled = {**run_settings.DEFAULTS, **{k: v for k, v in values.items() if v is not None}}
    for run in workload.runs.filter(status__in=UNFINISHED_STATUSES).order_by("created_at", "pk"):
        if run.strategies == list(strategies) and all(getattr(run, k) == settled[k] for k in SETTINGS):
            return run
    return None


def queue_position(run: ComparisonRun) -> int:
    """1 for the next comparison a worker takes, and so on; 0 once it runs. Every organisation's runs share the
    workers' queue, so all count."""
    if run.status != ComparisonRun.Status.QUEUED:
        return 0
    return ComparisonRun.objects.filter(status=ComparisonRun.Status.QUEUED).filter(
        Q(created_at__lt=run.created_at) | Q(created_at=run.created_at, pk__lt=run.pk)).count() + 1


def cancel_run(run: ComparisonRun) -> bool:
    """Cancel a queued or running run, and its shards (workloads.comparisons.shards). A running one, and each running
    shard, stops at its next progress report."""
    with transaction.atomic():
        cancelled = ComparisonRun.cancel(run.pk, ComparisonRun.Status.CANCELLED)
        if cancelled:
            shards.cancel(run)
    return cancelled


def retry_run(run: ComparisonRun) -> bool:
    """Queue a failed run again with the same settings, its partial results cleared; whether it had failed.

    Raises ValidationError for a scheduled run whose period has another run standing for it meanwhile, and
    quotas.QuotaExceeded past the organisation's quota of runs queued at once, scheduled or not: a person asks.
    """
    try:
        with transaction.atomic():
            if ComparisonRun.objects.filter(pk=run.pk, status=ComparisonRun.Status.FAILED).exists():
                quotas.admit_runs(run.workload.organisation)
            again = ComparisonRun.requeue(run.pk, (ComparisonRun.Status.FAILED,))
            if again:
                clear_partial_run(run.pk)
                shards.requeue_unfinished(run)  # the shards done keep their calls: only the others are asked again
                dispatch.queue_comparison(run.pk)
    except IntegrityError as exc:
        raise ValidationError(f"another run stands for period {run.period} of this schedule: retry that one "
                              "instead") from exc
    return bool(again)
