"""Chunked against full-context on a workload's own documents: real inference, measured.

Every strategy answers every probe with the same model, one independent call at a
time, as an API would bill it (no prompt cache is shared between calls, except the
documents' own cache in the cached strategies):

  full_<mode>  one call per probe over all documents and the question, with the
               engine's attention in that mode (index_share, naive_sparse, dense,
               sliding_window).
  full_<mode>_cached  the same, but the documents (the prompts' shared start) are
               prefilled once per run, before the probes, and each probe's call
               continues from that cache (engine.strategies.prefix). The report splits its
               cost into `prefill_seconds` (once) and `per_question_seconds`; the
               documents' tokens and prefill FLOPs count once.
  chunked      map: for each probe, one call per chunk (chunk + question, dense
               attention: chunks are short); reduce: one more call that sees the
               question and the chunk answers that are not NONE, and gives the answer.
               The subject guard (engine.strategies.subject_guard) first drops the answers of
               chunks whose document does not name what the question names, unless it would
               drop them all (a join's answer in a document that does not name its subject).
  retrieval    BM25 over the same chunks (engine.strategies.retrieval), then one dense call with
               the chunks the search picks, in document order, and the question.
  routed       Self-Route (Li et al., EMNLP 2024): the retrieval call, worded as the
               model's route says (engine.strategies.routing: told to answer NONE when
               the chunks do not say, or not), escalates a NONE (engine.core.abstention),
               and with grounding an answer the chunks do not hold, to the
               full_index_share call. Where the documents do not fit the model
               it cannot escalate, keeps the retrieval answer and counts the refusal.

Every call is planned, with its real prompt, before any runs (engine.strategies.run_plan): the runner makes those
calls, a chunked or retrieval call that would not fit the model refuses the run first, and progress counts them.
Each call's answer and bill (CallBill) is handed to `keep` as it completes; a call already in `answered` (under its
key: the strategy, the question, the call's place and a digest of its prompt) is not made again but billed as it was
measured, so that a run taken over from a dead worker continues from its first unanswered call and reports what an
uninterrupted run would (greedy decoding: the same prompt gives the same answer).
The strategies run interleaved, probe by probe, and the strategy that goes first
rotates (probe i starts with strategy i mod k): on a shared machine, load that
comes and goes then falls on every strategy alike instead of on the one that
happened to run while it lasted. A strategy's calls for one probe stay together
(chunked: its map calls, then its reduce). The report's `order` lists the strategy
of every call as it ran.

Cost per strategy: tokens, calls, measured seconds and peak memory, ledger FLOPs
per call, and dollars at the prices passed in. The retrieval strategies' seconds
include their searches' CPU time and the index's building, also reported alone as
`retrieval_seconds`. The seconds priced are CUDA event
time on a GPU and, on a CPU, the computed time (process CPU time / threads; the
wall time is kept beside it), which the machine's other load does not stretch.
Each strategy's rate, seconds per ledger TFLOP, is kept per probe (all the calls
one question makes, the same work each time) as a median and its range.

Quality: probes answered correctly (normalised whole-word match), per kind, with
the Wilson 95% interval and token F1 beside it; next-token top-1 agreement of
sparse modes with dense over the documents; Index Share's index overlap. Each
strategy is gated against the most accurate one on the same probes (engine.core.stats:
gated, within, cannot_tell, or none with one strategy): a gated strategy's savings
do not count, as MLPerf counts a result only at the reference accuracy.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace

from engine.attention import AttentionConfig
from engine.core import decision, ledger, run_settings, stats
from engine.core.errors import EngineError
from engine.core.openmp import waits_passively
from engine.core.probes import ProbeQuestion, is_correct, token_f1
from engine.core.run_settings import ANSWER_TOKENS, FULL_MODES, full_mode, uses_index_share
from engine.evaluation import calibration
from engine.model.generate import GenerationResult, generate, top1_agreement, top1_predictions
from engine.model.loader import LoadedModel
from engine.model.measure import Measurement, device_name, seconds_basis
from engine.strategies import prompts, retrieval, run_plan, subject_guard
from engine.core.abstention import says_none
from engine.strategies.chunking import Chunk
from engine.strategies.prefix import PrefixCache, generate_from, prefill_prefix
from engine.strategies.run_plan import RETRIEVAL_STRATEGIES, PlannedCall
from engine.strategies.work import ComparisonWork

# A strategy's attention mode as the report gives it; routed escalates to full_index_share's.
MODES = {**FULL_MODES, "chunked": "dense", "retrieval": "dense", "routed": "dense+index_share"}

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]  # (calls done, calls planned, what is running)
Keep = Callable[[str, dict], None]  # (a call's key, {"text": its answer, "bill": its CallBill's fields})


@dataclass(frozen=True)
class CallBill:
    """What one call, or a cached strategy's one-off prefill, cost as measured: kept with its answer as it completes,
    so that a run taken over from a dead worker bills a call made before the takeover as it was measured then."""

    tokens_in: int
    tokens_out: int
    seconds: float  # what is priced: CUDA event time, or on a CPU the computed seconds
    seconds_cpu: float | None  # on a CPU: the same computed seconds; None on CUDA
    wall_seconds: float
    peak_memory_bytes: int
    flops: dict[str, float]
    bytes: dict[str, float]

    @classmethod
    def measured(cls, tokens_in: int, tokens_out: int, parts: Sequence[Measurement], wall_seconds: float,
                 costs: ledger.Costs) -> CallBill:
        on_cpu = parts[0].cpu_seconds is not None
        priced = sum(m.cpu_seconds if on_cpu else m.seconds for m in parts)
        return cls(tokens_in, tokens_out, priced, priced if on_cpu else None, wall_seconds,
                   max(m.peak_memory_bytes for m in parts), dict(costs.flops), dict(costs.bytes))


@dataclass
class StrategyTally:
    """One strategy's calls, tokens, seconds and answers, added up as a comparison runs (the web app keeps the
    result as its StrategyResult rows)."""

    name: str
    mode: str
    tokens_in: int = 0
    tokens_out: int = 0
    calls: int = 0
    seconds: float = 0.0  # what is priced: CUDA event time, or on a CPU the computed seconds
    seconds_cpu: float | None = None  # on a CPU: the model calls' process CPU time / threads; None on CUDA
    wall_seconds: float = 0.0
    peak_memory_bytes: int = 0
    costs: ledger.Costs = field(default_factory=ledger.Costs)
    answers: list[dict] = field(default_factory=list)  # one per probe, with the seconds and FLOPs of its calls
    refused: str | None = None
    top1_agreement: float | None = None
    index_overlap: float | None = None
    prefix_tokens: int | None = None  # cached strategies: the documents' tokens, prefilled once
    prefill_seconds: float = 0.0  # cached strategies: the priced seconds of that one-off prefill
    retrieval_seconds: float | None = None  # retrieval and routed: building the index, then every search
    escalated: int = 0  # routed: probes whose retrieval answer said NONE
    escalation_refused: int = 0  # routed: of those, the ones the documents were too long to escalate

    def add_search(self, cpu_seconds: float) -> None:
        """Bill a search (or the index's building) on top of the model calls: one thread's CPU time, which is the
        time it held the machine, wall time included (a search waits on nothing)."""
        self.retrieval_seconds = (self.retrieval_seconds or 0.0) + cpu_seconds
        self.seconds += cpu_seconds
        self.wall_seconds += cpu_seconds

    @property
    def correct(self) -> list[bool]:
        return [a["correct"] for a in self.answers]

    @property
    def accuracy(self) -> float:
        return sum(self.correct) / len(self.answers) if self.answers else 0.0

    @property
    def rate(self) -> stats.Spread:
        """Priced seconds per ledger TFLOP over the probes: each probe's calls are the same work."""
        return stats.Spread.of([a["seconds"] / a["flops"] * 1e12 for a in self.answers])

    @property
    def per_question_seconds(self) -> float:
        """Mean priced seconds of one question's calls (a cached strategy's one-off prefill apart)."""
        return statistics.fmean(a["seconds"] for a in self.answers)

    def record(self, bill: CallBill) -> None:
        """A question's call."""
        self.calls += 1
        self._add(bill)

    def record_prefill(self, length: int, bill: CallBill) -> None:
        """A cached strategy's one-off prefill of the documents: not a question's call, billed once per run."""
        self.prefix_tokens, self.prefill_seconds = length, bill.seconds
        self._add(bill)

    def _add(self, bill: CallBill) -> None:
        self.tokens_in += bill.tokens_in
        self.tokens_out += bill.tokens_out
        self.seconds += bill.seconds
        if bill.seconds_cpu is not None:
            self.seconds_cpu = (self.seconds_cpu or 0.0) + bill.seconds_cpu
        self.wall_seconds += bill.wall_seconds
        self.peak_memory_bytes = max(self.peak_memory_bytes, bill.peak_memory_bytes)
        for component in ledger.COMPONENTS:
            self.costs.flops[component] += bill.flops[component]
            self.costs.bytes[component] += bill.bytes[component]


def compare(lm: LoadedModel, work: ComparisonWork, progress: Progress | None = None,
            answered: Mapping[str, dict] | None = None, keep: Keep | None = None,
            questions: Sequence[int] | None = None) -> dict:
    """Run every strategy of `work` for real on `lm`; return the report (see engine compare --json). `answered`: the
    calls a run taken over already made, by key, as `keep` was handed them. `questions`: ask only the probes of these
    indices (one shard of a run; the report covers them alone), keeping each its place in the rotation and its keys,
    so that a report over every question from the shards' kept calls is the unsharded run's."""
    strategies = run_settings.check_strategies(work.strategies)
    if not work.probes:
        raise EngineError("there are no probes to answer")
    # Every call planned and checked before any runs (or the calibration, which reads every document).
    planned = run_plan.plan(lm, work, strategies)
    anchors = "uniform" if work.anchors == "uniform" else "not needed: no strategy uses Index Share"
    if any(uses_index_share(s) for s in strategies):
        # Tokenising every document costs seconds at a million tokens: only the workload's own calibration reads them.
        ids = prompts.documents_prompt(lm, work.documents) if work.anchors == "workload" else None
        attention, anchors = calibration.for_run(lm, work.attention, work.anchors, ids)
        work = replace(work, attention=attention)
    if lm.device.type == "cpu" and not waits_passively():
        log.warning("OMP_WAIT_POLICY is not PASSIVE: the CPU time priced includes OpenMP threads spinning "
                    "while they wait, which grows with the machine's load (see engine/core/openmp.py)")

    results = {
        name: StrategyTally(name, MODES.get(name) or full_mode(name),
                            refused=planned.refused if full_mode(name) is not None else None)
        for name in strategies
    }
    for name in set(RETRIEVAL_STRATEGIES) & set(strategies):
        results[name].add_search(planned.index.cpu_seconds)  # each strategy builds its own index, as it would alone
    running = [r for r in results.values() if not r.refused]
    asked = range(len(work.probes)) if questions is None else questions
    caller = _Caller(lm, ledger.from_hf_config(lm.config, lm.name), work.attention,
                     ticker(progress, planned.calls_of(asked)),
                     answered or {}, keep or (lambda key, kept: None))
    prefixes = {name: caller.prefill(results[name], ids) for name, ids in planned.prefills.items()}
    for i in asked:
        probe = work.probes[i]
        for out in rotated(running, i):
            seconds, flops = out.seconds, out.costs.total_flops
            calls = planned.questions[i][out.name]
            if out.name == "chunked":
                _answer_chunked(caller, work, probe, calls, out, i)
            elif out.name in RETRIEVAL_STRATEGIES:
                _answer_retrieval(caller, probe, calls, out, i)
            else:
                (call,) = calls
                answer = (caller.continue_from(out, prefixes[out.name], call, f"{i}") if call.continues
                          else caller(out, call, f"{i}"))
                out.answers.append(judged(probe, answer))
            out.answers[-1].update(seconds=out.seconds - seconds, flops=out.costs.total_flops - flops)
    if work.diagnostics and not planned.refused:
        _diagnose(lm, work, results)
    return _report(lm, work, results, planned.chunks, caller, anchors)


def rotated(running: list[StrategyTally], probe_index: int) -> list[StrategyTally]:
    """The strategies in the order they answer one probe: probe i starts with strategy i mod k."""
    if not running:
        return []
    first = probe_index % len(running)
    return running[first:] + running[:first]


class _Caller:
    """Makes a run's planned calls one at a time, or takes a kept answer for one already made: reports progress,
    notes whose call ran, and bills it."""

    def __init__(self, lm: LoadedModel, shape: ledger.ModelShape, attention: AttentionConfig,
                 tick: Callable[[str], None], answered: Mapping[str, dict], keep: Keep):
        self.lm, self.shape, self.attention, self.tick = lm, shape, attention, tick
        self.answered, self.keep = answered, keep
        self.order: list[str] = []
        self.made = self.reused = 0

    def __call__(self, out: StrategyTally, call: PlannedCall, place: str, ids: list[int] | None = None) -> str:
        """Make the call, with its planned prompt or, for a reduce, `ids`."""
        ids = call.prompt() if ids is None else ids
        cfg = self.attention.replace(mode=call.mode)
        key = self._begin(out, call, place, ids)
        if (kept := self.answered.get(key)) is not None:
            return self._reuse(out, kept)
        start = time.perf_counter()
        result = generate(self.lm, ids, cfg, ANSWER_TOKENS)
        return self._made(out, key, result, CallBill.measured(
            len(ids), result.new_tokens, (result.prefill, result.decode), time.perf_counter() - start,
            ledger.call_costs(self.shape, cfg, len(ids), result.decode_forwards)))

    def prefill(self, out: StrategyTally, ids: list[int]) -> Callable[[], PrefixCache]:
        """A cached strategy's one-off prefill; `order` names it "<strategy>:prefill". One already kept is billed as
        it was first measured, and its cache computed only when a question's call still needs it (a run taken over
        near its end, or the merge of a sharded run, needs none)."""
        cfg = self.attention.replace(mode=out.mode)
        self.tick(f"{run_settings.name(out.name)}: the documents, once")
        self.order.append(f"{out.name}:prefill")
        key = call_key(out.name, "prefill", ids)
        computed = functools.cache(lambda: prefill_prefix(self.lm, ids, cfg))
        if (kept := self.answered.get(key)) is not None:
            out.record_prefill(len(ids), CallBill(**kept["bill"]))
            return computed
        start = time.perf_counter()
        prefix = computed()
        bill = CallBill.measured(len(ids), 0, (prefix.prefill,), time.perf_counter() - start,
                                 ledger.prefill_costs(self.shape, cfg, len(ids), answer_tail=False))
        self.keep(key, {"text": "", "bill": asdict(bill)})
        out.record_prefill(prefix.length, bill)
        return computed

    def continue_from(self, out: StrategyTally, prefixed: Callable[[], PrefixCache], call: PlannedCall,
                      place: str) -> str:
        suffix = call.prompt()
        key = self._begin(out, call, place, suffix)
        if (kept := self.answered.get(key)) is not None:
            return self._reuse(out, kept)
        prefix = prefixed()
        start = time.perf_counter()
        result = generate_from(self.lm, prefix, suffix, ANSWER_TOKENS)
        return self._made(out, key, result, CallBill.measured(
            len(suffix), result.new_tokens, (result.prefill, result.decode), time.perf_counter() - start,
            ledger.continuation_costs(self.shape, prefix.cfg, prefix.length, len(suffix), result.decode_forwards)))

    def _begin(self, out: StrategyTally, call: PlannedCall, place: str, ids: list[int]) -> str:
        self.tick(f"{run_settings.name(out.name)}: {call.what}")
        self.order.append(out.name)
        return call_key(out.name, place, ids)

    def _reuse(self, out: StrategyTally, kept: dict) -> str:
        self.reused += 1
        out.record(CallBill(**kept["bill"]))
        return kept["text"]

    def _made(self, out: StrategyTally, key: str, result: GenerationResult, bill: CallBill) -> str:
        self.made += 1
        self.keep(key, {"text": result.text, "bill": asdict(bill)})  # before billing: a kept call is never made twice
        out.record(bill)
        return result.text


def call_key(strategy: str, place: str, ids: Sequence[int]) -> str:
    """"chunked:3:reduce:<digest>": the strategy, the question's index and the call's place in its calls, and a digest
    of the prompt's tokens, so that a changed prompt (a reduce over other map answers) is a new call."""
    digest = hashlib.sha256(",".join(map(str, ids)).encode()).hexdigest()[:16]
    return f"{strategy}:{place}:{digest}"


def _answer_retrieval(caller: _Caller, probe: ProbeQuestion, calls: list[PlannedCall], out: StrategyTally,
                      i: int) -> None:
    """One call over the chunks the question's search found; routed escalates the answers its route says to its
    planned full_index_share call or, where the documents do not fit (none planned), keeps the answer and counts the
    refusal."""
    search, *escalation = calls
    out.add_search(search.search.cpu_seconds)
    answer = caller(out, search, f"{i}:search")
    escalated = search.route is not None and search.route.escalates(answer, search.search.chunks)
    if escalated:
        out.escalated += 1
        if escalation:
            answer = caller(out, escalation[0], f"{i}:whole")
        else:
            out.escalation_refused += 1
    found = retrieval.retrieved_source(probe, search.search.chunks)
    out.answers.append({
        **judged(probe, answer),
        "retrieved": [{"document": c.document, "part": c.index + 1} for c in search.search.chunks],
        "retrieved_source": found, **({"escalated": escalated} if out.name == "routed" else {}),
    })


def _answer_chunked(caller: _Caller, work: ComparisonWork, probe: ProbeQuestion, calls: list[PlannedCall],
                    out: StrategyTally, i: int) -> None:
    """Map every chunk, drop the answers the subject guard refuses (engine.strategies.subject_guard), reduce the
    rest."""
    *maps, reduce = calls
    found, dropped = guarded_map(lambda j, call: caller(out, call, f"{i}:{j}"), work, probe, maps)
    final = caller(out, reduce, f"{i}:reduce", prompts.reduce_prompt(caller.lm, probe.question, found))
    out.answers.append({**judged(probe, final), "chunk_answers": found, "dropped_answers": dropped})


def guarded_map(ask: Callable[[int, PlannedCall], str], work: ComparisonWork, probe: ProbeQuestion,
                maps: Sequence[PlannedCall]) -> tuple[list[str], list[dict]]:
    """Ask every chunk (`ask(j, call)` for the j-th map call); return the answers the reduce reads and those the
    subject guard dropped. The reduce reads the answers that are not NONE, apart from those the guard drops (the
    chunk's document does not name what the question names) or, where it drops every one, those it dropped: a
    join's answer often stands in a document that does not name the question's subject (the replacement's order
    number in the support chat, asked of the goods truck NW-118 carried, which only the incident report names).
    Measured (benchmarks/join_strategies.py, "fallback"): see benchmarks/README.md, "Strategies that join"."""
    texts = {d.name: d.text for d in work.documents}
    telling = subject_guard.telling_names(probe.question, texts.values())
    found, dropped = [], []
    for j, call in enumerate(maps):
        answer = ask(j, call).strip()
        if answer and not says_none(answer):
            lacks = subject_guard.missing(texts[call.chunk.document], telling)
            if lacks:
                dropped.append({"chunk": prompts.header(call.chunk), "answer": answer, "document_lacks": lacks})
            else:
                found.append(answer)
    return found or [d["answer"] for d in dropped], dropped


def _diagnose(lm, work: ComparisonWork, results: dict[str, StrategyTally]) -> None:
    """Top-1 agreement with dense over the documents, and Index Share's overlap (not billed)."""
    sparse = [r for r in results.values() if full_mode(r.name) not in (None, "dense") and not r.refused]
    if not sparse:
        return
    ids = prompts.documents_ids(lm, work.documents)
    dense = top1_predictions(lm, ids, work.attention.replace(mode="dense"))
    # A mode's figures are the same cached or not: measured once per mode.
    for mode in dict.fromkeys(r.mode for r in sparse):
        cfg = work.attention.replace(mode=mode)
        agreement = top1_agreement(lm, ids, cfg, dense)
        overlap = generate(lm, ids, cfg, 0, measure_overlap=True).index_overlap if mode == "index_share" else None
        for r in sparse:
            if r.mode == mode:
                r.top1_agreement, r.index_overlap = agreement, overlap


def _gates(results: dict[str, StrategyTally], points: float) -> dict[str, stats.Gate]:
    """Each strategy that ran against the most accurate one; refused strategies answered nothing and take no part."""
    return stats.gates({name: r.correct for name, r in results.items() if not r.refused}, points)


def quality(answers: list[dict], gate: stats.Gate) -> dict:
    """A strategy's report of how it answered: right answers with their 95% interval, token F1, its gate against the
    best, and the same per kind of question."""
    right = sum(a["correct"] for a in answers)
    return {"accuracy": right / len(answers), "n_probes": len(answers), "ci95": list(stats.wilson(right, len(answers))),
            "f1": statistics.fmean(a["f1"] for a in answers), "gate": gate.call, "gated": gate.call == "gated",
            "points_below": gate.points_below, "mcnemar_p": gate.p_value, "probes_to_tell": gate.probes_to_tell,
            "by_kind": stats.by_kind(answers)}


def judged(probe: ProbeQuestion, output: str) -> dict:
    return {"question": probe.question, "expected": probe.answer, "kind": probe.kind,
            "output": output.strip(), "correct": is_correct(output, probe.answer),
            "f1": token_f1(output, probe.answer)}


def ticker(progress: Progress | None, planned: int) -> Callable[[str], None]:
    """What a runner calls before each planned call: reports the calls done so far and what runs now."""
    done = 0

    def tick(message: str) -> None:
        nonlocal done
        if progress:
            progress(done, planned, message)
        done += 1

    return tick


def _report(
    lm: LoadedModel, work: ComparisonWork, results: dict[str, StrategyTally], chunks: list[Chunk], caller: _Caller,
    anchors: str,
) -> dict:
    device = device_name(lm.device)
    gates = _gates(results, work.gate_points)
    strategies = {}
    for name, r in results.items():
        if r.refused:
            strategies[name] = {"mode": r.mode, "refused": r.refused}
            continue
        device_dollars = r.seconds / 3600 * work.prices.per_device_hour
        api_dollars = (
            r.tokens_in * work.prices.api_input_per_mtok + r.tokens_out * work.prices.api_output_per_mtok
        ) / 1e6
        rate, gate = r.rate, gates[name]
        strategies[name] = {
            "mode": r.mode, "tokens_in": r.tokens_in, "tokens_out": r.tokens_out, "calls": r.calls,
            "device": device, "seconds": r.seconds, "seconds_cpu": r.seconds_cpu, "wall_seconds": r.wall_seconds,
            "rate": {"median": rate.median, "min": rate.low, "max": rate.high},
            "flops": {**r.costs.flops, "total": r.costs.total_flops},
            "bytes": {**r.costs.bytes, "total": r.costs.total_bytes},
            "peak_memory_bytes": r.peak_memory_bytes,
            **_split_cost(r),
            "cost": {"device_hours": r.seconds / 3600, "device_dollars": device_dollars, "api_dollars": api_dollars},
            "quality": {**quality(r.answers, gate),
                        "top1_agreement": r.top1_agreement, "index_overlap": r.index_overlap},
            "probes": r.answers,
            **_retrieval_report(r),
        }
    return {
        "model": lm.name, "device": device, "max_positions": lm.max_positions,
        "seconds_basis": seconds_basis(lm.device),
        "documents": [{"name": d.name, "tokens": len(lm.tokenizer(d.text)["input_ids"])} for d in work.documents],
        "chunks": len(chunks),
        "settings": {"chunk_tokens": work.chunk_tokens, "chunk_overlap": work.chunk_overlap,
                     "retrieval_chunks": work.retrieval_chunks, "retrieval_tokens": work.retrieval_tokens,
                     "gate_points": work.gate_points, "attention": asdict(work.attention), "anchors": anchors,
                     "answer_tokens": ANSWER_TOKENS},
        "prices": asdict(work.prices),
        "strategies": strategies,
        "order": caller.order,
        "calls": {"made": caller.made, "reused": caller.reused},
        "decision": _decision(strategies, results, work, seconds_basis(lm.device)).to_json(),
    }


def _split_cost(r: StrategyTally) -> dict:
    """A full-context strategy's cost as the one-off prefill (0 uncached) and the mean per question."""
    if full_mode(r.name) is None:
        return {}
    return {"prefix_tokens": r.prefix_tokens, "prefill_seconds": r.prefill_seconds,
            "per_question_seconds": r.per_question_seconds}


def _retrieval_report(r: StrategyTally) -> dict:
    """Retrieval's own figures: its seconds and recall; routed's escalations as a count and a share."""
    if r.name not in RETRIEVAL_STRATEGIES:
        return {}
    found = {"retrieval_seconds": r.retrieval_seconds,
             "retrieval_recall": retrieval.recall([a["retrieved_source"] for a in r.answers])}
    if r.name == "routed":
        found |= {"escalated": r.escalated, "escalated_share": r.escalated / len(r.answers),
                  "escalation_refused": r.escalation_refused}
    return found


def _decision(strategies: dict, results: dict[str, StrategyTally], work: ComparisonWork,
              basis: str) -> decision.Decision:
    """The one recommendation (engine.core.decision), per question at the run's prices, with each cost's spread."""
    options = []
    for name, r in results.items():
        if r.refused:
            options.append(decision.Option(name, refused=r.refused))
            continue
        cost, n = strategies[name]["cost"], len(r.answers)
        per_question = cost["device_dollars"] / n
        options.append(decision.Option(
            name, cost=per_question, cost_range=r.rate.scaled(per_question), api_cost=cost["api_dollars"] / n,
            correct=sum(r.correct), n_probes=n,
            gate=stats.Gate(**{k: strategies[name]["quality"][v] for k, v in _GATE_FIELDS.items()})))
    view = decision.View(unit="question", basis=f"device dollars: {basis} at ${work.prices.per_device_hour:g}/h",
                         gate_points=work.gate_points, api="the API prices given")
    return decision.decide(options, view)


_GATE_FIELDS = {"call": "gate", "points_below": "points_below", "p_value": "mcnemar_p",
                "probes_to_tell": "probes_to_tell"}
