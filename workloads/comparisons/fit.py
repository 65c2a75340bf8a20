"""Before a comparison runs: which strategies fit the model's positions, and about how long the run will take.

The workload page and the comparison form show this, and starting a run consults it, so that documents too long
for the model are known before any inference instead of from a finished run that measured chunking alone. Token
counts are the documents' stored counts (Document.tokens, under the target model) plus an allowance for the prompt
around them: the engine counts exactly when it runs, so close to the limit the verdict is an estimate.

The duration is the planned calls' ledger FLOPs (engine.core.planned_work, as workloads.comparisons.planning counts
them: a cached strategy's prefill once, then each question's own calls) at each strategy's seconds per ledger FLOP
measured in the workload's latest succeeded run, else in the organisation's latest succeeded run of the same model (a
first run of a new workload); a strategy neither measured is timed at the model's own speed, measured on this device
when it was provisioned (engine/core/stored_speed.py), and says so. Only without any of these is it given in ledger
FLOPs alone.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache

from engine.core import ledger, run_settings
from engine.core.call_plan import PROMPT_TOKENS, call_plan, calls, estimated_chunks, positions_needed
from engine.core.model_metadata import read_metadata
from engine.core.planned_work import planned_work
from engine.core.run_settings import STRATEGIES
from workloads.comparisons import planning
from workloads.comparisons.model_choices import choice as model_choice
from workloads.comparisons.target_models import model_path
from workloads.formatting import flops as flop_text
from workloads.models import ComparisonRun, Document, Workload

# What the durations read of the latest succeeded run (Preflight.estimate, its settings for the ledger) and what its
# measured rates are kept under (rates_of): Django built the SQL for all its other columns on every view.
RATE_RUN_COLUMNS = ("workload", "device", "model", "finished_at", *run_settings.DEFAULTS)
# Entries never go stale (a run's rates never change); this only bounds how long an unused one takes room.
RATES_TIMEOUT_S = 7 * 24 * 3600
# A manual run expected to take longer than this is queued only once the user confirms it (starting.start_run).
CONFIRM_ABOVE_S = 3600


class UNREAD:
    """preflight's rate_run when the caller has not read the latest succeeded run."""


@dataclass(frozen=True)
class StrategyFit:
    strategy: str
    positions: int  # what its longest call needs
    fits: bool
    calls: int  # calls the run would make (none for a strategy that refuses)
    flops: float  # ledger FLOPs of those calls
    seconds: float | None  # at the strategy's measured rate; None without one
    from_speed: bool = False  # timed at the model's provisioning speed, no run having measured the strategy

    @property
    def full_context(self) -> bool:
        return run_settings.full_mode(self.strategy) is not None


@dataclass(frozen=True)
class Preflight:
    model: str
    max_positions: int
    document_tokens: int
    documents: int
    probes: int
    rows: list[StrategyFit]
    chosen: list[str]
    rate_run: ComparisonRun | None  # the run whose measured rates give the durations
    workload_id: int | None = None
    prompt_tokens: int = PROMPT_TOKENS  # for the pages' explanation
    speed_device: str = ""  # where the model's provisioning speed was measured, when some rows are timed by it

    def _chosen(self) -> list[StrategyFit]:
        return [row for row in self.rows if row.strategy in self.chosen]

    @property
    def refusing(self) -> list[str]:
        return [row.strategy for row in self._chosen() if not row.fits]

    @property
    def every_full_context_refuses(self) -> bool:
        """Every chosen full-context strategy would refuse (and at least one was chosen): the run would measure
        chunking alone, or nothing."""
        full = [row for row in self._chosen() if row.full_context]
        return bool(full) and not any(row.fits for row in full)

    @property
    def refusal_warning(self) -> str:
        full = [row for row in self._chosen() if row.full_context]
        return (f"Every full-context strategy chosen ({_names(full)}) would refuse: the documents need about "
                f"{full[0].positions:,} positions and {self.model} holds {self.max_positions:,}, so the run would "
                "measure no full-context cost")

    @property
    def seconds(self) -> float:
        """The chosen strategies' estimated duration, from whatever rows are timed."""
        return sum(row.seconds or 0.0 for row in self._chosen() if row.fits)

    @property
    def needs_confirmation(self) -> bool:
        return self.seconds > CONFIRM_ABOVE_S

    @property
    def duration_warning(self) -> str:
        return (f"This comparison would take {duration_words(self.seconds)} on one worker "
                f"({self.calls:,} model calls)")

    @property
    def calls(self) -> int:
        """The model calls the chosen strategies would make."""
        return sum(row.calls for row in self._chosen() if row.fits)

    @property
    def estimate(self) -> str:
        """The chosen strategies' duration and what it rests on: measured rates, the model's speed, or ledger FLOPs
        alone."""
        if not (self.documents and self.probes):
            return "Nothing to estimate yet: a run needs documents and probes."
        running = [row for row in self._chosen() if row.fits]
        if not running:
            return "Nothing chosen would run: every chosen strategy would refuse."
        measured = [row for row in running if row.seconds is not None and not row.from_speed]
        by_speed = [row for row in running if row.from_speed]
        untimed = [row for row in running if row.seconds is None]
        parts = []
        if measured:
            run = self.rate_run
            whose = "" if run.workload_id == self.workload_id else f" of {run.workload.name}"
            parts.append(f"{_names(measured)} as measured in run {run.pk}{whose} on {run.device or 'its device'}")
        if by_speed:
            parts.append(f"{_names(by_speed)} at the model's speed measured on {self.speed_device} when it was set up "
                         "(no run has measured them yet, so this is rougher)")
        if untimed:
            parts.append(f"{_names(untimed)} not timed: about {flop_text(sum(row.flops for row in untimed))} of work, "
                         "with no measured speed")
        total = f"{duration_words(self.seconds)} in all, " if measured or by_speed else ""
        return (f"Estimated duration: {total}{self.calls:,} model calls; "
                f"{'; '.join(parts)}.")


def latest_rate_run(workload: Workload, *columns: str, **annotations) -> ComparisonRun | None:
    """The workload's latest succeeded run, with the columns the durations read of it (Preflight.estimate) and the
    ones its measured rates are kept under (rates_of); a page that shows more of the run names its other `columns`
    and `annotations`, and hands the run to preflight."""
    return (workload.runs.filter(status=ComparisonRun.Status.SUCCEEDED, reader="")  # an endpoint's has no rates
            .only(*RATE_RUN_COLUMNS, *columns).annotate(**annotations).first())


def rates_of(run: ComparisonRun) -> tuple[dict[str, float], dict[str, float]]:
    """Seconds per ledger FLOP of each strategy the run measured, and of each cached strategy's prefill, as the
    planning prices them. A succeeded run's results and report are written once, before it succeeds (a retry
    finishes again, at another time), so the rates are kept in Django's cache under the run and when it finished:
    reading its results and decoding its whole report took a tenth of each view of the workload page."""
    key = f"measured-rates:{run.pk}:{run.finished_at.isoformat() if run.finished_at else ''}"
    rates = cache.get(key)
    if rates is None:
        rates = planning.measured_rates(run), planning.prefill_rates(run)
        cache.set(key, rates, RATES_TIMEOUT_S)
    return rates


def preflight(workload: Workload, chosen: Sequence[str], values: dict | None = None, *,
              documents: Sequence[Document] | None = None, probes: int | None = None,
              rate_run: ComparisonRun | None | type[UNREAD] = UNREAD) -> Preflight:
    """Every strategy's fit and planned work for the workload's documents and probes as they are now, with the
    run's settings (`values`, as start_run takes them; unset ones are the run's defaults). A page that lists the
    documents (in name order) and probes passes them, and the latest succeeded run (latest_rate_run's columns, or
    None) if it has read it, rather than have them read again."""
    settled = {**run_settings.DEFAULTS, **{k: v for k, v in (values or {}).items() if v is not None}}
    cfg = run_settings.attention(settled)
    shape = ledger.from_metadata(read_metadata(model_path(workload.target_model)), workload.target_model)
    tokens = (tuple(d.tokens for d in documents) if documents is not None
              else tuple(workload.documents.values_list("tokens", flat=True)))
    probes = workload.probes.count() if probes is None else probes
    run = latest_rate_run(workload) if rate_run is UNREAD else rate_run
    run = run or _model_rate_run(workload)
    rates, prefill_rates = rates_of(run) if run is not None else ({}, {})
    speed = model_choice(workload.target_model).speed
    rows = _fits(shape, cfg, tokens, probes, tuple(rates.items()), tuple(prefill_rates.items()),
                 *(settled[name] for name in ("chunk_tokens", "chunk_overlap", "retrieval_chunks", "retrieval_tokens")),
                 _speed_rate(shape, speed))
    return Preflight(workload.target_model, shape.max_positions, sum(tokens), len(tokens), probes, list(rows),
                     list(chosen), run, workload.pk, speed_device=(speed or {}).get("device", ""))


def _model_rate_run(workload: Workload) -> ComparisonRun | None:
    """A new workload's stand-in for its own latest run: the organisation's latest succeeded run of the same model,
    so that a first run is timed as soon as any workload has measured the model."""
    return (ComparisonRun.objects.filter(workload__organisation_id=workload.organisation_id,
                                         model=workload.target_model, status=ComparisonRun.Status.SUCCEEDED,
                                         reader="")
            .select_related("workload").only(*RATE_RUN_COLUMNS, "workload__name").first())


def _speed_rate(shape: ledger.ModelShape, speed: dict | None) -> float | None:
    """Seconds per ledger FLOP of the call the model was timed on when it was provisioned (a dense prefill and a few
    new tokens), or None where it was not timed. One call's rate stands for every strategy: rougher than a run's own
    per-strategy rates, which is why the estimate says which it used."""
    try:
        return _rate_of_timed_call(shape, *(speed[name] for name in SPEED_FIELDS))
    except (TypeError, KeyError):  # not timed, or timed in values that are no numbers
        return None


SPEED_FIELDS = ("prefill_seconds", "prefill_tokens", "decode_tokens", "decode_tokens_per_second")


@functools.lru_cache(maxsize=64)
def _rate_of_timed_call(shape: ledger.ModelShape, prefill_seconds: float, prefill_tokens: int, decode_tokens: int,
                        decode_tokens_per_second: float) -> float | None:
    """_speed_rate's arithmetic, kept per process under the timing's values: the ledger's cost of the timed call was
    3% of the workload page's CPU on every view, for a model's speed that changes only when it is provisioned again
    (and then it is other values)."""
    try:
        seconds = prefill_seconds + decode_tokens / decode_tokens_per_second
        flops = ledger.call_costs(shape, run_settings.attention({}, "dense"), prefill_tokens, decode_tokens).total_flops
    except (TypeError, ZeroDivisionError):
        return None
    return seconds / flops if seconds > 0 and flops > 0 else None


@functools.lru_cache(maxsize=256)
def _fits(shape: ledger.ModelShape, cfg, tokens: tuple[int, ...], probes: int, rates: tuple, prefill_rates: tuple,
          chunk_tokens: int, chunk_overlap: int, retrieval_chunks: int,
          retrieval_tokens: int, speed_rate: float | None) -> tuple[StrategyFit, ...]:
    """Every strategy's row, from plain values alone, so kept per process under them: the ledger's cost of every
    planned call was a tenth of the workload page's CPU, on every view of documents and probes that had not changed.
    A new document, probe, measured run or setting is another key, never a stale row."""
    rates, prefill_rates = dict(rates), dict(prefill_rates)
    chunks = estimated_chunks(tokens, chunk_tokens, chunk_overlap)
    rows = []
    for strategy in STRATEGIES:
        plan = call_plan(strategy, tokens, chunks, retrieval_chunks, retrieval_tokens)
        positions = positions_needed(plan)
        fits = positions <= shape.max_positions
        planned = planned_work(shape, cfg, strategy, plan)
        work = planned.per_question(probes) * probes if fits else 0.0
        rate = rates.get(strategy)
        from_speed = rate is None and speed_rate is not None
        rate = speed_rate if from_speed else rate
        seconds = (planning.seconds(planned, probes, rate, prefill_rates.get(strategy, rate)) * probes
                   if rate is not None and fits else None)
        rows.append(StrategyFit(strategy, positions, fits, probes * calls(plan) if fits else 0, work, seconds,
                                from_speed and fits))
    return tuple(rows)


def _names(rows: list[StrategyFit]) -> str:
    return ", ".join(run_settings.name(row.strategy) for row in rows)


def duration_words(seconds: float) -> str:
    """"about 4 hours", "about 25 minutes": a run's length as a person plans around it."""
    if seconds < 90:
        return f"about {max(round(seconds), 1)} seconds"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} minutes"
    hours = seconds / 3600
    return f"about {hours:.1f} hours" if hours < 10 else f"about {round(hours):,} hours"
