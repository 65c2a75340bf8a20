"""The same strategies through an OpenAI-compatible endpoint: a hosted provider, a vLLM, SGLang or llama.cpp server,
Ollama, or `python -m engine serve` on a GPU box.

The plan is the local engine's (engine.strategies.run_plan), made with the run's local tokenizer: the same chunks,
the same searches, the same prompts (each call's user message under the same system message), the same scoring and
quality gate, interleaved the same way. What differs, and why:

- The whole-documents strategies are one request each, read with the endpoint's own attention, so only
  `full_dense` (whole documents in one request) and `full_dense_cached` (the same request, documents first, relying
  on the provider's prompt cache) are asked (run_settings.ENDPOINT_STRATEGIES, through_endpoint); routed escalates a
  NONE to that request, with Self-Route's own wording (engine.strategies.routing.DEFAULT): the routes measured per
  model are for the local models, and a provider's model was not measured.
- Costs are what the provider bills: the prompt, cached and completion tokens of each reply's `usage` (its own
  tokenizer), with the local tokenizer's count beside them; each call's latency (median and 95th percentile), and
  the attempts its retries took. No FLOPs or device seconds: the endpoint's hardware is not ours to measure. The
  web prices the tokens at the endpoint's price-book entry.
- A request longer than the endpoint's context is refused by the endpoint: the strategy reports the refusal, as the
  local engine's whole-documents strategies do, and a routed escalation keeps the search's answer.
- Every reply is handed to `keep` as it arrives, and a call already answered (in `answered`, under its key: the
  strategy, the question, the call's place and a digest of its message) is not made again, so a worker that dies
  mid-run resumes without paying twice.
- `spend` is told of every new reply and may stop the run by returning why (a spending cap reached): the report
  keeps the questions every strategy finished, and says why it stopped (`stopped`).
"""

from __future__ import annotations

import copy
import hashlib
import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.core import run_settings, stats
from engine.core.errors import EngineError
from engine.core.probes import ProbeQuestion
from engine.core.run_settings import ANSWER_TOKENS, ENDPOINT_STRATEGIES
from engine.remote.client import EndpointRefused, EndpointTarget, Reply, ask
from engine.strategies import prompts, retrieval, routing, run_plan
from engine.strategies.compare import guarded_map, judged, quality, rotated, ticker
from engine.strategies.run_plan import RETRIEVAL_STRATEGIES, PlannedCall
from engine.strategies.work import ComparisonWork

MODE = "endpoint"  # a strategy's attention, as the report gives it: the endpoint's own


class _Stop(Exception):
    """`spend` ended the run early; the message says why."""


@dataclass(frozen=True)
class Tokenizing:
    """What planning reads of a model when an endpoint answers: its tokenizer (for the chunks and the local counts)
    and a context too large to refuse anything, since the endpoint refuses what it cannot hold."""

    name: str
    tokenizer: object
    max_positions: int = 1 << 40


@dataclass
class EndpointTally:
    """One strategy's replies, added up as an endpoint comparison runs."""

    name: str
    tokens_in: int = 0  # billed prompt tokens, the provider's count
    tokens_cached: int = 0  # of those, billed as cached
    tokens_in_local: int = 0  # the same prompts by the local tokenizer
    tokens_out: int = 0
    calls: int = 0
    attempts: int = 0
    retry_wait_s: float = 0.0
    latencies: list[float] = field(default_factory=list)
    answers: list[dict] = field(default_factory=list)
    refused: str | None = None
    escalated: int = 0
    escalation_refused: int = 0
    retrieval_seconds: float | None = None

    def record(self, local_tokens: int, reply: Reply) -> None:
        self.calls += 1
        self.tokens_in += reply.prompt_tokens
        self.tokens_cached += reply.cached_tokens
        self.tokens_in_local += local_tokens
        self.tokens_out += reply.completion_tokens
        self.attempts += reply.attempts
        self.retry_wait_s += reply.retry_wait_s
        self.latencies.append(reply.latency_s)

    def add_search(self, cpu_seconds: float) -> None:
        self.retrieval_seconds = (self.retrieval_seconds or 0.0) + cpu_seconds

    @property
    def correct(self) -> list[bool]:
        return [a["correct"] for a in self.answers]


class _Refused(Exception):
    """A call the endpoint refused as longer than its context."""


class _Caller:
    """Makes a run's planned calls through the endpoint, or takes a stored reply for one already answered."""

    def __init__(self, target: EndpointTarget, tok: Tokenizing, answered: Mapping[str, dict],
                 keep: Callable[[str, Reply], None], spend: Callable[[Reply], str | None], tick: Callable[[str], None]):
        self.target, self.tok, self.answered = target, tok, answered
        self.keep, self.spend, self.tick = keep, spend, tick
        self.order: list[str] = []
        self.made = self.reused = 0

    def __call__(self, out: EndpointTally, call: PlannedCall, place: str, text: str | None = None) -> str:
        """The call's reply text, with its planned message or, for a reduce, `text`; billed to `out`."""
        text = call.text() if text is None else text
        key = f"{out.name}:{place}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"
        self.tick(f"{run_settings.name(out.name)}: {call.what}")
        self.order.append(out.name)
        stored = self.answered.get(key)
        if stored is not None:
            reply, self.reused = Reply(**stored), self.reused + 1
        else:
            try:
                reply = ask(self.target, prompts.SYSTEM, text, ANSWER_TOKENS)
            except EndpointRefused as refused:
                raise _Refused(str(refused)) from None
            self.made += 1
            self.keep(key, reply)
        out.record(len(prompts.chat(self.tok, text)), reply)
        if stored is None and (why := self.spend(reply)):  # after it is kept: a stop keeps what it billed
            raise _Stop(why)
        return reply.text


def check_strategies(names) -> list[str]:
    """The strategies an endpoint asks; a local engine's attention mode is refused, saying what to choose."""
    chosen = run_settings.check_strategies(names)
    other = [s for s in chosen if s not in ENDPOINT_STRATEGIES]
    if other:
        raise EngineError(
            f"through an endpoint, {', '.join(map(run_settings.name, other))} cannot be asked: the endpoint reads "
            "whole documents with its own attention; choose from "
            f"{', '.join(map(run_settings.name, ENDPOINT_STRATEGIES))}")
    return chosen


def _planned_tokens(planned: run_plan.RunPlan) -> tuple[int, int]:
    """The most input and output tokens the run can bill, by the local tokenizer: every planned call at its full
    answer, each routed escalation as if made, each reduce at its longest, and each cached call's whole message (the
    endpoint is sent it whole). A provider's tokenizer counts differently, so where the estimate is shown it says
    so."""
    tokens_in = calls = 0
    for question in planned.questions:
        for strategy, planned_calls in question.items():
            shared = len(planned.prefills.get(strategy, ()))
            tokens_in += sum(c.tokens + shared for c in planned_calls)
            calls += len(planned_calls)
    return tokens_in, calls * ANSWER_TOKENS


def compare_endpoint(tok: Tokenizing, work: ComparisonWork, target: EndpointTarget, *,
                     answered: Mapping[str, dict] | None = None, keep: Callable[[str, Reply], None] | None = None,
                     spend: Callable[[Reply], str | None] | None = None,
                     estimate: Callable[[int, int], None] | None = None,
                     progress: Callable[[int, int, str], None] | None = None) -> dict:
    """Ask every probe through the endpoint in each of `work`'s strategies; return the report (engine.strategies.
    compare's shape, with the billed tokens, the latencies and the attempts in place of FLOPs and device seconds).
    `estimate` is told the most input and output tokens the run can bill, once its calls are planned and before the
    first is made: it may raise to refuse the run (a spending cap)."""
    strategies = check_strategies(work.strategies)
    if not work.probes:
        raise EngineError("there are no probes to answer")
    planned = run_plan.plan(tok, work, strategies, route=routing.DEFAULT)
    if estimate:
        estimate(*_planned_tokens(planned))
    results = {name: EndpointTally(name) for name in strategies}
    for name in set(RETRIEVAL_STRATEGIES) & set(strategies):
        results[name].add_search(planned.index.cpu_seconds)
    caller = _Caller(target, tok, answered or {}, keep or (lambda key, reply: None), spend or (lambda reply: None),
                     ticker(progress, planned.calls - len(planned.prefills)))
    finished, stopped, kept = 0, None, copy.deepcopy(results)
    try:
        for i, probe in enumerate(work.probes):
            for out in rotated([r for r in results.values() if not r.refused], i):
                _answer(caller, work, probe, planned.questions[i][out.name], out, i)
            finished, kept = i + 1, copy.deepcopy(results)
    except _Stop as stop:
        # The report is as of the last question every strategy finished; the calls of the one begun are billed and
        # kept (the run's spending counts them), but would weigh on some strategies and not others.
        stopped, results = str(stop), kept
    return _report(tok, work, target, results, len(planned.chunks), caller, finished, stopped)


def _answer(caller: _Caller, work: ComparisonWork, probe: ProbeQuestion, calls: list[PlannedCall],
            out: EndpointTally, i: int) -> None:
    try:
        if out.name == "chunked":
            out.answers.append(_chunked(caller, work, probe, calls, out, i))
        elif out.name in RETRIEVAL_STRATEGIES:
            out.answers.append(_retrieval(caller, probe, calls, out, i))
        else:
            out.answers.append(judged(probe, caller(out, calls[0], f"{i}")))
    except _Refused as refused:
        out.refused = f"the endpoint refused: {refused}"


def _retrieval(caller: _Caller, probe: ProbeQuestion, calls: list[PlannedCall], out: EndpointTally,
               i: int) -> dict:
    search, *escalation = calls
    out.add_search(search.search.cpu_seconds)
    answer = caller(out, search, f"{i}:search")
    escalated = search.route is not None and search.route.escalates(answer, search.search.chunks)
    if escalated:
        out.escalated += 1
        try:
            answer = caller(out, escalation[0], f"{i}:whole")
        except _Refused:
            out.escalation_refused += 1
    return {**judged(probe, answer),
            "retrieved": [{"document": c.document, "part": c.index + 1} for c in search.search.chunks],
            "retrieved_source": retrieval.retrieved_source(probe, search.search.chunks),
            **({"escalated": escalated} if out.name == "routed" else {})}


def _chunked(caller: _Caller, work: ComparisonWork, probe: ProbeQuestion, calls: list[PlannedCall],
             out: EndpointTally, i: int) -> dict:
    """As the local engine: map every chunk, drop what the subject guard refuses, reduce the rest."""
    *maps, reduce = calls
    found, dropped = guarded_map(lambda j, call: caller(out, call, f"{i}:{j}"), work, probe, maps)
    final = caller(out, reduce, f"{i}:reduce", prompts.reduce_text(probe.question, found))
    return {**judged(probe, final), "chunk_answers": found, "dropped_answers": dropped}


def _report(tok: Tokenizing, work: ComparisonWork, target: EndpointTarget, results: dict[str, EndpointTally],
            chunks: int, caller: _Caller, finished: int, stopped: str | None) -> dict:
    reader = f"{target.model} at {target.base_url}"
    gates = stats.gates({n: r.correct for n, r in results.items() if not r.refused and r.answers},
                        work.gate_points)
    strategies = {}
    for name, r in results.items():
        if r.refused or not r.answers:
            strategies[name] = {"mode": MODE, "refused": r.refused or "no question was finished"}
            continue
        gate = gates[name]
        latency = sorted(r.latencies)
        strategies[name] = {
            "mode": MODE, "device": reader, "calls": r.calls,
            "tokens_in": r.tokens_in, "tokens_cached": r.tokens_cached, "tokens_in_local": r.tokens_in_local,
            "tokens_out": r.tokens_out, "seconds": sum(latency), "seconds_cpu": None, "wall_seconds": sum(latency),
            "latency": {"median": statistics.median(latency), "p95": _percentile(latency, 0.95)},
            "attempts": r.attempts, "retries": r.attempts - r.calls, "retry_wait_s": r.retry_wait_s,
            "peak_memory_bytes": 0,
            "quality": {**quality(r.answers, gate), "top1_agreement": None, "index_overlap": None},
            "probes": r.answers,
            **({"retrieval_seconds": r.retrieval_seconds,
                "retrieval_recall": retrieval.recall([a["retrieved_source"] for a in r.answers])}
               if name in RETRIEVAL_STRATEGIES else {}),
            **({"escalated": r.escalated, "escalated_share": r.escalated / len(r.answers),
                "escalation_refused": r.escalation_refused} if name == "routed" else {}),
        }
    return {
        "reader": "endpoint", "model": target.model, "endpoint": {"base_url": target.base_url, "model": target.model},
        "tokenizer": tok.name, "device": reader, "seconds_basis": "latency: wall seconds from request to reply",
        "documents": [{"name": d.name, "tokens": len(tok.tokenizer(d.text)["input_ids"])} for d in work.documents],
        "chunks": chunks,
        "settings": {"chunk_tokens": work.chunk_tokens, "chunk_overlap": work.chunk_overlap,
                     "retrieval_chunks": work.retrieval_chunks, "retrieval_tokens": work.retrieval_tokens,
                     "gate_points": work.gate_points, "answer_tokens": ANSWER_TOKENS},
        "strategies": strategies, "order": caller.order,
        "calls": {"made": caller.made, "reused": caller.reused},
        "questions_finished": finished, "stopped": stopped,
    }


def _percentile(ordered: list[float], q: float) -> float:
    """The nearest-rank percentile: of 20 calls or fewer, the 95th is the slowest."""
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]
