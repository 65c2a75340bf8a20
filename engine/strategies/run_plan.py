"""The calls a comparison will make, planned before any of them runs, with their real prompts: the runner makes
exactly these, the checks before a run read them, and progress counts them, so the three cannot drift (the runner
once made its own calls beside a plan that only counted them). Per question and strategy, they are
engine.core.call_plan's calls, which the planning projects from token counts:

  full_<mode>         one call over the documents and the question
  full_<mode>_cached  one continuation with the question's own tokens, after the run's one prefill of the documents
  chunked             one call per chunk, then the reduce over the chunks' answers: its prompt exists only once the
                      chunks have answered, so it is planned, and checked, at its longest
  retrieval           one call over the chunks the question's search finds (searched here, once)
  routed              that call, worded as the model's route says (engine.strategies.routing), then, where the route
                      escalates its answer, the full_index_share call: an escalation, planned for every question and
                      made only for those; where the documents do not fit the model, none is planned and routed
                      keeps the search's answer
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core.call_plan import ANSWER_LINE_TOKENS
from engine.core.errors import EngineError
from engine.core.run_settings import ANSWER_TOKENS, CACHED_MODES, check_chunk_tokens, full_mode
from engine.model.loader import LoadedModel
from engine.strategies import prompts, retrieval, routing
from engine.strategies.chunking import Chunk, split_documents
from engine.strategies.prefix import shared_prefix_length
from engine.strategies.work import ComparisonWork

RETRIEVAL_STRATEGIES = ("retrieval", "routed")
CHUNK_STRATEGIES = ("chunked", *RETRIEVAL_STRATEGIES)


@dataclass(frozen=True)
class PlannedCall:
    mode: str  # the attention mode it runs in
    tokens: int  # its prompt's tokens; a reduce's at their most
    what: str  # what progress says while it runs
    prompt: Callable[[], list[int]] | None = None  # its prompt, made when it runs; None for a reduce
    # Its user message, what an endpoint is sent (engine.strategies.endpoint_compare): a cached strategy's is the whole
    # prompt's, as a provider caches the start it has seen; None for a reduce.
    text: Callable[[], str] | None = None
    chunk: Chunk | None = None  # a chunked map call's chunk
    search: retrieval.Search | None = None  # a retrieval call's search
    route: routing.Route | None = None  # routed's search call: which of its answers escalate
    escalation: bool = False  # routed's whole-documents call, made only where the route escalates the search's answer
    continues: bool = False  # a cached strategy's question, continuing from the documents' cache

    @property
    def positions(self) -> int:
        return self.tokens + ANSWER_TOKENS


@dataclass(frozen=True)
class RunPlan:
    chunks: list[Chunk]
    index: retrieval.Index | None  # the BM25 index over the chunks, for retrieval and routed
    refused: str | None  # why the full-context strategies refuse: the documents need more positions than the model
    prefills: dict[str, list[int]]  # each cached strategy's one prefill: the prompts' shared start
    questions: list[dict[str, list[PlannedCall]]]  # per probe, each strategy's calls (not the refused ones)

    @property
    def calls(self) -> int:
        """What progress counts: every prefill and every call planned, escalations as if each were made."""
        return self.calls_of(range(len(self.questions)))

    def calls_of(self, asked: Sequence[int]) -> int:
        """`calls` for the questions of these indices only (one shard of a run), every prefill included."""
        return len(self.prefills) + sum(len(calls) for i in asked for calls in self.questions[i].values())


def plan(lm: LoadedModel, work: ComparisonWork, strategies: Sequence[str],
         route: routing.Route | None = None) -> RunPlan:
    """Every call `work` makes on `lm`, each prompt tokenised; refuses, before anything runs, a chunked or retrieval
    call that would not fit the model (the full-context strategies refuse on their own, in the report). Routed
    follows `route`, by default the one measured for `lm` (engine.strategies.routing.for_model)."""
    check_chunk_tokens(work.chunk_tokens, lm.max_positions)
    chunks = (split_documents(work.documents, lm.tokenizer, work.chunk_tokens, work.chunk_overlap)
              if set(CHUNK_STRATEGIES) & set(strategies) else [])
    index = retrieval.Index(chunks) if set(RETRIEVAL_STRATEGIES) & set(strategies) else None
    full = [prompts.full_prompt(lm, work.documents, p.question) for p in work.probes]
    need = max(map(len, full)) + ANSWER_TOKENS
    refused = (f"the workload needs {need} positions and {lm.name} has {lm.max_positions}; full-context strategies "
               "refuse rather than truncate") if need > lm.max_positions else None
    running = [s for s in strategies if not (refused and full_mode(s) is not None)]
    shared = shared_prefix_length(full) if set(CACHED_MODES) & set(running) else 0
    planner = _Planner(lm, work, chunks, index, full, shared, escalate=refused is None,
                       route=route or routing.for_model(lm.name))
    questions = [{s: planner.calls(s, i) for s in running} for i in range(len(work.probes))]
    run_plan = RunPlan(chunks, index, refused, {s: full[0][:shared] for s in running if s in CACHED_MODES},
                       questions)
    _check_fits(lm, run_plan, work)
    return run_plan


class _Planner:
    """One question's calls in one strategy, from the run's documents, chunks, index and whole prompts."""

    def __init__(self, lm: LoadedModel, work: ComparisonWork, chunks: list[Chunk], index: retrieval.Index | None,
                 full: list[list[int]], shared: int, escalate: bool, route: routing.Route):
        self.lm, self.work, self.chunks, self.index, self.full = lm, work, chunks, index, full
        self.shared, self.escalate, self.route = shared, escalate, route
        self.searches: dict[int, retrieval.Search] = {}  # retrieval and routed search the same: once per question

    def calls(self, strategy: str, i: int) -> list[PlannedCall]:
        question = self.work.probes[i].question
        if strategy == "chunked":
            return self._chunked(question)
        if strategy in RETRIEVAL_STRATEGIES:
            return self._retrieval(strategy, i, question)
        mode, ids = full_mode(strategy), self.full[i]
        if strategy in CACHED_MODES:
            ids = ids[self.shared:]
        return [PlannedCall(mode, len(ids), question[:60], _given(ids), self._full_text(i),
                            continues=strategy in CACHED_MODES)]

    def _full_text(self, i: int) -> Callable[[], str]:
        return functools.partial(prompts.full_text, self.work.documents, self.work.probes[i].question)

    def _chunked(self, question: str) -> list[PlannedCall]:
        # A map call's prompt is made again when it runs, not held: every chunk's prompt for every question of a
        # million-token workload would hold gigabytes of token ids. Its length is kept, for the checks and the test.
        maps = [PlannedCall("dense", len(prompts.chunk_prompt(self.lm, c, question)), prompts.header(c),
                            functools.partial(prompts.chunk_prompt, self.lm, c, question),
                            functools.partial(prompts.chunk_text, c, question), chunk=c)
                for c in self.chunks]
        # Each chunk's answer adds at most ANSWER_TOKENS, plus its "- " line.
        longest = (len(prompts.reduce_prompt(self.lm, question, []))
                   + len(self.chunks) * (ANSWER_TOKENS + ANSWER_LINE_TOKENS))
        return [*maps, PlannedCall("dense", longest, f"reduce for {question[:50]}")]

    def _retrieval(self, strategy: str, i: int, question: str) -> list[PlannedCall]:
        if i not in self.searches:
            self.searches[i] = self.index.search(question, self.work.retrieval_chunks, self.work.retrieval_tokens)
        search = self.searches[i]
        route = self.route if strategy == "routed" else None
        instruction = route.instruction if route else ""
        ids = prompts.retrieval_prompt(self.lm, search.chunks, question, instruction)
        calls = [PlannedCall("dense", len(ids), f"search for {question[:50]}", _given(ids),
                             functools.partial(prompts.retrieval_text, search.chunks, question, instruction),
                             search=search, route=route)]
        if route and self.escalate:
            calls.append(PlannedCall("index_share", len(self.full[i]), question[:60], _given(self.full[i]),
                                     self._full_text(i), escalation=True))
        return calls


def _given(ids: list[int]) -> Callable[[], list[int]]:
    return lambda: ids


def _check_fits(lm: LoadedModel, run_plan: RunPlan, work: ComparisonWork) -> None:
    """Refuse a run whose chunked or retrieval calls would not fit the model, saying what would help."""
    for probe, question in zip(work.probes, run_plan.questions, strict=True):
        if "chunked" in question:
            need = max(call.positions for call in question["chunked"])
            if need > lm.max_positions:
                raise EngineError(
                    f"chunked: with {len(run_plan.chunks)} chunks, a call may need {need} positions and {lm.name} "
                    f"has {lm.max_positions}; use larger chunks or a shorter question")
        for strategy in RETRIEVAL_STRATEGIES:
            search = question[strategy][0] if strategy in question else None
            if search and search.positions > lm.max_positions:
                raise EngineError(
                    f"retrieval: the {len(search.search.chunks)} chunks found for {probe.question[:60]!r} make a "
                    f"call of {search.positions} positions and {lm.name} has {lm.max_positions}; retrieve fewer "
                    "chunks or fewer tokens")
