"""Planning: what each strategy would cost per question as a workload's context grows.

Whole documents are projected both ways: every question reading the documents afresh, and with the documents'
prefix cached, its prefill shared by the questions asked of them (the run's questions, or the workload's probes
before any run). A cached question's own calls and the prefill run at different speeds (a few tokens and the
answer, against thousands of tokens at once), so each is priced at its own measured rate.

The ledger's FLOPs come from the target model's shape and the engine settings of
the workload's latest run (or of the run a summary is about). Device dollars need a
measured run: its device seconds per ledger FLOP calibrate the conversion, priced at
today's GPU price for that device (or, for a summary of a past run, the price in force
on its date). API dollars are tokens at the API price of the same date. This reads the
engine's cost ledger, which is arithmetic on the model's config; inference only ever
runs in workloads.tasks.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Sum

from engine.core import ledger
from engine.core.call_plan import QUESTION_TOKENS, Call, call_plan, estimated_chunks
from engine.core.device_profile import device_class, read_profile
from engine.core.model_metadata import read_metadata
from engine.core.planned_work import PlannedWork, planned_work
from engine.core.run_settings import ANSWER_TOKENS, CACHED_MODES, name, shown
from workloads.comparisons import pricing
from workloads.comparisons.length_rates import LengthRates, length_rates
from workloads.comparisons.measured_profile import MeasuredLines, measured_lines
from workloads.comparisons.target_models import model_path
from workloads.formatting import dollars
from workloads.models import ComparisonRun, Workload, periods

LENGTHS = [32 * 1024 * 2**i for i in range(6)]  # 32K .. 1M
# Whole documents in the two attention modes a manager picks between, each uncached and cached, against asking
# every chunk and searching the chunks; naive sparse is Index Share's own baseline. Routed joins them once a run
# has measured how often its questions escalate (_escalation_share).
STRATEGIES = ["full_dense", "full_naive_sparse", "full_index_share", "full_dense_cached", "full_index_share_cached",
              "chunked", "retrieval"]
ROUTED = "routed"
CACHED = "full_index_share_cached"  # the headline's cached line


@dataclass(frozen=True)
class Projection:
    lengths: list[int]
    flops: dict[str, list[float]]
    device_dollars: dict[str, list[float]] | None
    api_dollars: dict[str, list[float]] | None
    affordable_up_to: int | None
    answer: str
    notes: list[str]
    questions: int = 1  # the questions a cached line's prefill is shared by
    measured: MeasuredLines | None = None  # a device profile's measured figures, beside the projected ones
    # Per length, whether the device dollars' whole-document rates there were measured, interpolated or extrapolated
    # in the run's device profile (length_rates); None when one measured rate prices every length.
    rate_basis: list[str] | None = None

    @property
    def has_zero_dollars(self) -> bool:
        """Whether some length costs $0 (owned hardware or an API priced at $0), which a log axis cannot draw."""
        series = [*(self.device_dollars or {}).values(), *(self.api_dollars or {}).values()]
        return any(value == 0 for values in series for value in values)


def project(workload: Workload, as_of: ComparisonRun | None = None) -> Projection:
    """The projection from the workload's latest succeeded run at today's prices (the planning page), or,
    as_of a succeeded run, from that run at the prices in force on its date, so that exporting its
    summary again later neither reprices it nor swaps in a newer run's measurements."""
    # The engine's runs: an endpoint's measure no FLOPs to project (engine.strategies.endpoint_compare).
    run = as_of or workload.runs.filter(status=ComparisonRun.Status.SUCCEEDED, reader="").first()
    on = as_of.day if as_of else periods.today(workload)
    basis = run or ComparisonRun(workload=workload)  # the model fields' defaults when nothing has run
    cfg = basis.attention_config()
    shape = ledger.from_metadata(read_metadata(model_path(workload.target_model)), workload.target_model)
    share = _escalation_share(run)
    strategies = [*STRATEGIES, *([ROUTED] if share is not None else [])]
    calls = {s: [_calls(s, n, basis) for n in LENGTHS] for s in strategies}
    work = {s: [planned_work(shape, cfg, s, plan, share or 0.0) for plan in calls[s]] for s in strategies}
    questions = _questions(workload, run)
    flops = {s: [w.per_question(questions) for w in values] for s, values in work.items()}
    notes = [f"Engine settings from {'run ' + str(run.pk) if run else 'the defaults'}: window {cfg.window}, "
             f"top-k {cfg.topk} ({max(cfg.topk, cfg.answer_topk)} for a question and its answer), "
             f"{cfg.global_blocks} global blocks, indexer {shown('indexer', cfg.indexer)} shared by groups of "
             f"{cfg.group_size}, chunks of {basis.chunk_tokens} tokens with {basis.chunk_overlap} overlap."]
    if shape.max_positions < LENGTHS[-1]:
        notes.append(f"{workload.target_model} holds {shape.max_positions:,} positions: past that, the projection is "
                     "for a model of the same shape with a longer context.")
    whose = f"those run {run.pk} asked" if run else "the workload's probes"
    notes.append(f"The cached lines share the documents' one-off prefill among {questions:,} "
                 f"question{'s' if questions != 1 else ''} ({whose}); each question then reads its own "
                 f"{QUESTION_TOKENS} tokens or so against the cached documents.")
    if share is not None:
        notes.append(f"{name(ROUTED)} escalated {share:.0%} of its questions to whole documents (Index Share) in run "
                     f"{run.pk}: the projection assumes that share at every length.")
    else:
        notes.append(f"{name(ROUTED)} is projected once a run has measured how often its questions escalate to "
                     "whole documents.")
    tokens = _documents_tokens(workload, run)
    if tokens < LENGTHS[0]:
        measured = f"run {run.pk}'s measured costs" if run else "a comparison's measured costs"
        notes.append(f"The workload's documents hold {tokens:,} tokens, fewer than the {LENGTHS[0] // 1024}K this "
                     f"projection starts at: at their own length, {measured} answer the question.")
    by_length = _length_rates(run, cfg.indexer, tokens)
    device = _device_dollars(workload, run, work, questions, notes, on, by_length)
    api = _api_dollars(workload, calls, questions, notes, on, share or 0.0)
    in_dollars = device is not None and {"full_index_share", "chunked"} <= device.keys()
    basis_costs = device if in_dollars else flops
    view = ("device view, in device dollars at each strategy's measured rate" if in_dollars
            else "device view, in ledger FLOPs (no device dollars)")
    up_to = _up_to(basis_costs)
    measured = measured_lines(workload.organisation, cfg.indexer, on, device_class(run.device) if run else "")
    if measured is not None:
        notes.append(measured.note)
    return Projection(LENGTHS, flops, device, api, up_to, _answer(up_to, basis_costs, view, api, _api_name(workload)),
                      notes, questions, measured, by_length.basis if device is not None and by_length else None)


def _escalation_share(run: ComparisonRun | None) -> float | None:
    """The share of routed's questions that escalated to whole documents in the run; None where it did not run."""
    routed = ((run.report or {}).get("strategies") or {}).get(ROUTED, {}) if run is not None else {}
    return routed.get("escalated_share")


def _questions(workload: Workload, run: ComparisonRun | None) -> int:
    """The questions asked of the documents: the run's (its probes, every strategy asks them all), else the
    workload's probes now; one at least."""
    asked = max((r.n_probes for r in run.results.all()), default=0) if run is not None else 0
    return max(asked or workload.probes.count(), 1)


def _documents_tokens(workload: Workload, run: ComparisonRun | None) -> int:
    """Tokens of the documents the run read (as its report counted them), or of the workload's documents now."""
    if run is not None and run.report and run.report.get("documents"):
        return sum(d["tokens"] for d in run.report["documents"])
    return workload.documents.aggregate(total=Sum("tokens"))["total"] or 0


def _calls(strategy: str, n: int, run: ComparisonRun) -> list[Call]:
    """The calls one question makes over n tokens of documents (engine.core.call_plan, as the runner plans them)."""
    return call_plan(strategy, [n], estimated_chunks([n], run.chunk_tokens, run.chunk_overlap))


def _length_rates(run: ComparisonRun | None, indexer: str, tokens: int) -> LengthRates | None:
    """How the run's device's rates follow the length, where its device class has a profile with FLOPs."""
    if run is None or not run.device:
        return None
    profile = read_profile(device_class(run.device), settings.DEVICE_PROFILE_DIR)
    return length_rates(profile, indexer, LENGTHS, tokens) if profile else None


def _device_dollars(workload: Workload, run: ComparisonRun | None, work: dict[str, list[PlannedWork]],
                    questions: int, notes: list[str], on: dt.date, by_length: LengthRates | None) -> dict | None:
    """Each strategy's FLOPs at its own measured seconds per FLOP: strategies differ in how fast the device runs
    their work (short dense chunk calls against one long sparse call), so one rate for all would misprice them.
    A cached strategy's prefill is priced at the rate its own prefill ran at. Where the device has a profile, the
    whole-document rates follow the length as it measured (length_rates)."""
    if run is None:
        notes.append("Device dollars need a measured run to calibrate seconds per FLOP: start a comparison.")
        return None
    rates, prefill = measured_rates(run), prefill_rates(run)
    try:
        gpu = pricing.gpu_price(workload.organisation, run.device, on)
    except pricing.PricingError as exc:
        notes.append(f"No device dollars: {exc}.")
        return None
    if not rates:
        return None
    if not gpu.per_hour:  # every length would cost $0 in both strategies: there is nothing to compare
        notes.append(f"No device dollars: {gpu.device_class} is priced at $0/h (from {gpu.effective_from}, source: "
                     f"{gpu.source}), so device time is compared in ledger FLOPs.")
        return None
    speeds = ", ".join(f"{name(s).lower()} {1 / rate:.3g} FLOP/s" for s, rate in rates.items())
    notes.append(f"Device speed measured in run {run.pk} on {run.device}, each strategy at its own rate (the median "
                 f"over its questions): {speeds}; priced at {dollars(gpu.per_hour)}/h for {gpu.device_class} "
                 f"(from {gpu.effective_from}, source: {gpu.source}).")
    unmeasured = [name(s) for s in work if s not in rates]
    if unmeasured:
        notes.append(f"No device dollars for {', '.join(unmeasured)}: run {run.pk} did not measure "
                     f"{'it' if len(unmeasured) == 1 else 'them'}.")
    per_hour = float(gpu.per_hour)
    ones = [1.0] * len(LENGTHS)
    if by_length is not None:
        notes.append(by_length.note)
    scale = by_length.question if by_length else {}
    scale_prefill = by_length.prefill if by_length else {}
    return {s: [seconds(w, questions, rates[s] * scale.get(s, ones)[i],
                        prefill.get(s, rates[s]) * scale_prefill.get(s, ones)[i]) / 3600 * per_hour
                for i, w in enumerate(values)]
            for s, values in work.items() if s in rates}


def seconds(work: PlannedWork, questions: int, rate: float, prefill_rate: float) -> float:
    """One question's device seconds: its own calls at the strategy's rate, its share of a prefill at the
    prefill's."""
    return work.question_flops * rate + work.prefill_flops / max(questions, 1) * prefill_rate


def measured_rates(run: ComparisonRun) -> dict[str, float]:
    """Seconds per ledger FLOP for each strategy the run measured: the median over its questions where the run
    kept it (robust to a burst of load on one question), else its total seconds over its total FLOPs."""
    rates = {}
    for r in run.results.all():
        if r.refused or r.flops_total <= 0:
            continue
        rates[r.strategy] = r.rate_median / 1e12 if r.rate_median is not None else r.seconds / r.flops_total
    return rates


def prefill_rates(run: ComparisonRun) -> dict[str, float]:
    """Seconds per ledger FLOP of each cached strategy's one-off prefill, from the run's report: its seconds over
    the ledger's FLOPs of a prefill of that many tokens in its mode. The model's shape is read from disk only for a
    run that measured a prefill (the workload and planning pages call this on every view)."""
    reported = (run.report or {}).get("strategies") or {}
    prefills = {strategy: (mode, entry["prefix_tokens"], entry["prefill_seconds"])
                for strategy, mode in CACHED_MODES.items()
                if (entry := reported.get(strategy) or {}).get("prefix_tokens") and entry.get("prefill_seconds")}
    if not prefills:
        return {}
    shape = ledger.from_metadata(read_metadata(model_path(run.model)), run.model)
    cfg = run.attention_config()
    return {strategy: spent / ledger.prefill_costs(shape, cfg.replace(mode=mode), tokens, answer_tail=False).total_flops
            for strategy, (mode, tokens, spent) in prefills.items()}


def _api_dollars(workload: Workload, calls: dict, questions: int, notes: list[str], on: dt.date,
                 escalation_share: float) -> dict | None:
    try:
        api = pricing.workload_api_price(workload, on)
    except pricing.PricingError as exc:
        notes.append(f"No API dollars: {exc}.")
        return None
    if api is None:
        notes.append("No API dollars: the workload compares against no API model (choose one on its edit page).")
        return None
    notes.append(f"API dollars at {api.provider} {api.model}'s {dollars(api.input_per_mtok)} in and "
                 f"{dollars(api.output_per_mtok)} out per million tokens (from {api.effective_from}, source: "
                 f"{api.source}); an API bills tokens, whatever the attention.")
    per_in, per_out = float(api.input_per_mtok) / 1e6, float(api.output_per_mtok) / 1e6
    # A provider bills a cached prefix in full on the first question (writing its cache), then at its cached-input
    # price (the input price where the price book knows none), as workloads.comparisons.pricing bills a run.
    again = float(api.cached_input_per_mtok) / 1e6 if api.cached_input_per_mtok is not None else per_in
    prefix_price = (per_in + (questions - 1) * again) / questions

    def question(strategy: str, plan: list[Call]) -> float:
        if strategy in CACHED_MODES:
            prompt = plan[0].prompt_tokens
            return ((prompt - QUESTION_TOKENS) * prefix_price + QUESTION_TOKENS * per_in
                    + ANSWER_TOKENS * per_out)
        return sum(c.count * (escalation_share if c.escalation else 1.0)
                   * (c.prompt_tokens * per_in + ANSWER_TOKENS * per_out) for c in plan)

    return {s: [question(s, plan) for plan in plans] for s, plans in calls.items()}


def _api_name(workload: Workload) -> str:
    return f"{workload.api_provider} {workload.api_model}"


def _answer(up_to: int | None, costs: dict, view: str, api: dict | None, api_name: str | None) -> str:
    """The headline in both views, each labelled: the device's (dollars at measured rates, or ledger FLOPs) and
    the API's (tokens at its prices), which can disagree: an API bills tokens, whatever the attention. Each view
    says where whole documents stop paying, read afresh and with their prefix cached."""
    if costs.get("full_index_share") is None or costs.get("chunked") is None:
        device = (f"{view[:1].upper()}{view[1:]}: no comparison of whole documents (Index Share) against asking "
                  "every chunk, as the run measured only one of them.")
    else:
        device = f"{view[:1].upper()}{view[1:]}: {_crossings(costs, up_to)}"
    if api is None:
        return device
    return f"{device} API view ({api_name}): {_crossings(api, _up_to(api))}"


def _crossings(costs: dict, up_to: int | None) -> str:
    said = _crossing(up_to, costs["full_index_share"], costs["chunked"], "full_index_share")
    if costs.get(CACHED) is None:
        return said
    return f"{said} {_crossing(_up_to(costs, CACHED), costs[CACHED], costs['chunked'], CACHED)}"


def _up_to(costs: dict, strategy: str = "full_index_share") -> int | None:
    within = [n for i, n in enumerate(LENGTHS) if costs[strategy][i] <= costs["chunked"][i]]
    return max(within) if within else None


def _crossing(up_to: int | None, full: list[float], chunked: list[float], strategy: str) -> str:
    ratios = [f / c if c else math.inf for f, c in zip(full, chunked, strict=True)]
    subject = name(strategy)[:1].lower() + name(strategy)[1:]  # mid-sentence
    if up_to is None:
        return (f"{subject} cost more than asking every chunk at every length from 32K to 1M "
                f"tokens ({ratios[0]:.3g}× asking every chunk at 32K).")
    if up_to == LENGTHS[-1]:
        return (f"{subject} cost no more than asking every chunk at every length from 32K to 1M "
                f"tokens ({ratios[-1]:.3g}× asking every chunk at 1M).")
    return (f"{subject} cost no more than asking every chunk up to {up_to // 1024}K tokens of "
            "documents per question; past that, asking every chunk is cheaper.")
