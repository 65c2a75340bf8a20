"""Before a comparison runs: which strategies fit the model's positions, and about how long the run will take.

The workload page and the comparison form show this, and starting a run consults it, so that documents too long
for the model are known before any inference instead of from a finished run that measured chunking alone. Token
counts are the documents' stored counts (Document.tokens, under the target model) plus an allowance for the prompt
around them: the engine counts exactly when it runs, so close to the limit the verdict is an estimate.

The duration is the planned calls' ledger FLOPs (engine.ledger.call_costs, as workloads.planning counts them) at
each strategy's seconds per ledger FLOP measured in the workload's latest succeeded run; a strategy without a
measured rate is given in ledger FLOPs alone, and says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine import ledger
from engine.model.metadata import read_metadata
from engine.strategies import ANSWER_TOKENS, FULL_MODES, STRATEGIES
from workloads import planning
from workloads.models import ComparisonRun, Workload
from workloads.targets import model_path
from workloads.templatetags.units import flops as flop_text
from workloads.templatetags.units import seconds as seconds_text

CHUNKED = "chunked"
# The system message, chat template and question around the documents, measured on the sample workload's prompts
# (about 60 to 80 tokens), as workloads.planning's QUESTION_TOKENS.
PROMPT_TOKENS = 80
# The "=== name ===" line that opens each document in a full-context prompt (engine.compare._documents_text).
HEADER_TOKENS = 12
# The "- " line each chunk's answer takes in the reduce call (engine.compare._check_chunked_fits).
ANSWER_LINE_TOKENS = 4


def chunk_count(tokens: int, chunk_tokens: int, chunk_overlap: int) -> int:
    """Chunks of at most chunk_tokens, each after the first repeating chunk_overlap of the previous one."""
    if tokens <= chunk_tokens:
        return 1 if tokens else 0
    return math.ceil((tokens - chunk_overlap) / (chunk_tokens - chunk_overlap))


def needed_positions(strategy: str, document_tokens: Sequence[int], chunk_tokens: int, chunk_overlap: int,
                     answer_tokens: int) -> int:
    """Positions the strategy's longest call needs, its answer included.

    A full-context call holds every document, the prompt and the answer. Chunked holds one chunk and the prompt,
    or, in its reduce call, the prompt and one answer line per chunk; the engine refuses the run when either would
    not fit. The form, the pages and start_run all decide with this one function.
    """
    if strategy != CHUNKED:
        return sum(document_tokens) + HEADER_TOKENS * len(document_tokens) + PROMPT_TOKENS + answer_tokens
    chunks = sum(chunk_count(t, chunk_tokens, chunk_overlap) for t in document_tokens)
    longest_map = min(chunk_tokens, max(document_tokens, default=0)) + PROMPT_TOKENS
    reduce = PROMPT_TOKENS + chunks * (answer_tokens + ANSWER_LINE_TOKENS)
    return max(longest_map, reduce) + answer_tokens


@dataclass(frozen=True)
class StrategyFit:
    strategy: str
    positions: int  # what its longest call needs
    fits: bool
    calls: int  # calls the run would make (none for a strategy that refuses)
    flops: float  # ledger FLOPs of those calls
    seconds: float | None  # at the strategy's measured rate; None without one

    @property
    def full_context(self) -> bool:
        return self.strategy != CHUNKED


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
    prompt_tokens: int = PROMPT_TOKENS  # for the pages' explanation

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
        return (f"Every full-context strategy chosen ({', '.join(row.strategy for row in full)}) would refuse: the "
                f"documents need about {full[0].positions:,} positions and {self.model} holds {self.max_positions:,}, "
                "so the run would measure no full-context cost")

    @property
    def estimate(self) -> str:
        """The chosen strategies' duration and what it rests on: measured rates, or ledger FLOPs alone."""
        if not (self.documents and self.probes):
            return "Nothing to estimate yet: a run needs documents and probes."
        running = [row for row in self._chosen() if row.fits]
        if not running:
            return "Nothing chosen would run: every chosen strategy would refuse."
        timed = [row for row in running if row.seconds is not None]
        untimed = [row for row in running if row.seconds is None]
        parts = []
        if timed:
            run = self.rate_run
            parts.append(f"about {seconds_text(sum(row.seconds for row in timed))} for "
                         f"{', '.join(row.strategy for row in timed)}, at the seconds per ledger FLOP each measured "
                         f"in run {run.pk} on {run.device or 'its device'}")
        if untimed:
            parts.append(f"about {flop_text(sum(row.flops for row in untimed))} of ledger work for "
                         f"{', '.join(row.strategy for row in untimed)}, with no measured rate yet, so no time")
        return f"Estimated duration of the chosen strategies: {'; plus '.join(parts)}."


def measured_rates(workload: Workload) -> tuple[ComparisonRun | None, dict[str, float]]:
    """Seconds per ledger FLOP of each strategy in the workload's latest succeeded run, as the planning prices them."""
    run = workload.runs.filter(status=ComparisonRun.Status.SUCCEEDED).first()
    return (run, planning.measured_rates(run)) if run is not None else (None, {})


def preflight(workload: Workload, chosen: Sequence[str], values: dict | None = None) -> Preflight:
    """Every strategy's fit and planned work for the workload's documents and probes as they are now, with the
    run's settings (`values`, as start_run takes them; unset ones are the run's defaults)."""
    basis = ComparisonRun(**{k: v for k, v in (values or {}).items() if v is not None})  # unsaved: the defaults
    cfg = basis.attention_config()
    shape = ledger.from_metadata(read_metadata(model_path(workload.target_model)), workload.target_model)
    tokens = list(workload.documents.values_list("tokens", flat=True))
    probes = workload.probes.count()
    run, rates = measured_rates(workload)

    def call_flops(mode: str, prompt_tokens: int) -> float:
        return ledger.call_costs(shape, cfg.replace(mode=mode), prompt_tokens, ANSWER_TOKENS).total_flops

    rows = []
    for strategy in STRATEGIES:
        positions = needed_positions(strategy, tokens, basis.chunk_tokens, basis.chunk_overlap, ANSWER_TOKENS)
        fits = positions <= shape.max_positions
        if not fits:
            calls, work = 0, 0.0
        elif strategy == CHUNKED:
            counts = [chunk_count(t, basis.chunk_tokens, basis.chunk_overlap) for t in tokens]
            # Each map call holds one chunk (overlap included) and the prompt; chunks are short, so the engine
            # runs them, and the reduce call, with dense attention.
            per_probe = sum(k * call_flops("dense", math.ceil((t + (k - 1) * basis.chunk_overlap) / k) + PROMPT_TOKENS)
                            for t, k in zip(tokens, counts, strict=True) if k)
            per_probe += call_flops("dense", PROMPT_TOKENS + sum(counts) * (ANSWER_TOKENS + ANSWER_LINE_TOKENS))
            calls, work = probes * (sum(counts) + 1), probes * per_probe
        else:
            calls, work = probes, probes * call_flops(FULL_MODES[strategy], positions - ANSWER_TOKENS)
        rate = rates.get(strategy)
        rows.append(StrategyFit(strategy, positions, fits, calls, work,
                                work * rate if rate is not None and fits else None))
    return Preflight(workload.target_model, shape.max_positions, sum(tokens), len(tokens), probes, rows,
                     list(chosen), run)
