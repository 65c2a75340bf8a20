"""The calls each strategy makes for one question: their attention mode, prompt length and count. Torch-free.

The planning and the start's checks project with it from token counts alone; a comparison's run plan
(engine.strategies.run_plan) makes the same calls per question with their real prompts, and the runner makes those
(tests/engine/test_the_runner_makes_the_calls_it_planned.py holds the two together):

  full_<mode>  one call over every document, the prompt around them, in the strategy's attention mode;
  full_<mode>_cached  the same call, continuing from the documents' cache: it needs the same positions. The cache's
               one-off prefill is a run's, not a question's, and is not in a question's plan;
  chunked      one dense call per chunk (chunk and prompt), then one dense reduce call that reads the prompt and
               one answer line per chunk. Chunks are short, so they run with dense attention.
  retrieval    one dense call over the chunks a search picks (see `retrieved`), each under its header.
  routed       that call, and where it answers NONE the full_index_share call: an escalation, which a plan counts
               as if every question made it (the most it can cost) and which never makes the strategy refuse,
               since routed keeps the retrieval answer when the documents do not fit.

Where the real chunks are not known (a projection to 1M tokens, a workload before its run), their count follows the
splitter's rule of thumb: chunks of at most `chunk_tokens`, each after the first repeating `chunk_overlap`. The
splitter packs whole paragraphs, so the real count can be a little higher; the runner passes the real chunks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.run_settings import ANSWER_TOKENS, DEFAULTS, full_mode

# The system message, chat template, document headers and question around the documents, measured on the sample
# workload's prompts (about 60 to 80 tokens).
PROMPT_TOKENS = 80
# Of those, what follows the documents: the question and the chat template's close, which a cached strategy's
# question runs on its own. 17 to 29 tokens, 23 on average, on the sample's nine questions (SmolLM2's tokenizer).
QUESTION_TOKENS = 24
# The "=== name ===" line that opens each document in a full-context prompt.
HEADER_TOKENS = 12
# The "- " line each chunk's answer takes in the reduce call, on top of the answer.
ANSWER_LINE_TOKENS = 4


@dataclass(frozen=True)
class Call:
    mode: str  # the attention mode it runs in
    prompt_tokens: int
    count: int  # how many such calls one question makes
    escalation: bool = False  # made only where the first answer is NONE, and only where it fits the model

    @property
    def positions(self) -> int:
        """What the call needs of the model's positions: its prompt and the longest answer."""
        return self.prompt_tokens + ANSWER_TOKENS


def chunk_count(tokens: int, chunk_tokens: int, chunk_overlap: int) -> int:
    """Chunks of at most chunk_tokens over a document of `tokens`, each after the first repeating chunk_overlap."""
    if tokens <= chunk_tokens:
        return 1 if tokens else 0
    return math.ceil((tokens - chunk_overlap) / (chunk_tokens - chunk_overlap))


def estimated_chunks(document_tokens: Sequence[int], chunk_tokens: int, chunk_overlap: int) -> list[int]:
    """The token counts of the chunks the documents would split into (overlap included), by the rule of thumb."""
    chunks = []
    for tokens in document_tokens:
        n = chunk_count(tokens, chunk_tokens, chunk_overlap)
        if n:
            chunks += [math.ceil((tokens + (n - 1) * chunk_overlap) / n)] * n
    return chunks


def retrieved(ranked_tokens: Sequence[int], count: int, budget: int) -> int:
    """How many of the best-ranked chunks (their token counts, best first) a retrieval question gets: `count` when it
    is above 0, else the most from the top whose tokens fit `budget`, and one at least."""
    if count > 0:
        return min(count, len(ranked_tokens))
    total = taken = 0
    for tokens in ranked_tokens:
        if taken and total + tokens > budget:
            break
        total, taken = total + tokens, taken + 1
    return taken


def call_plan(
    strategy: str,
    document_tokens: Sequence[int],
    chunks: Sequence[int],
    retrieval_chunks: int = DEFAULTS["retrieval_chunks"],
    retrieval_tokens: int = DEFAULTS["retrieval_tokens"],
) -> list[Call]:
    """The calls one question makes in `strategy` over documents of these token counts, split into these chunks.

    A retrieval call is planned over the longest chunks the settings let a question get: which chunks a search
    picks depends on the question, and the longest make the call that must fit."""
    mode = full_mode(strategy)
    if mode is not None:
        prompt = sum(document_tokens) + HEADER_TOKENS * len(document_tokens) + PROMPT_TOKENS
        return [Call(mode, prompt, 1)]
    if strategy in ("retrieval", "routed"):
        longest = sorted(chunks, reverse=True)
        taken = longest[:retrieved(longest, retrieval_chunks, retrieval_tokens)]
        search = Call("dense", sum(taken) + HEADER_TOKENS * len(taken) + PROMPT_TOKENS, 1)
        if strategy == "retrieval":
            return [search]
        full = call_plan("full_index_share", document_tokens, chunks)[0]
        return [search, Call(full.mode, full.prompt_tokens, 1, escalation=True)]
    if strategy != "chunked":
        raise ValueError(f"no call plan for strategy {strategy!r}")
    # Chunks of one length make one entry: a projection to 1M tokens has thousands of equal chunks.
    maps = [Call("dense", tokens + PROMPT_TOKENS, count) for tokens, count in sorted(Counter(chunks).items())]
    reduce = Call("dense", PROMPT_TOKENS + len(chunks) * (ANSWER_TOKENS + ANSWER_LINE_TOKENS), 1)
    return [*maps, reduce]


def calls(plan: Sequence[Call]) -> int:
    return sum(call.count for call in plan)


def positions_needed(plan: Sequence[Call]) -> int:
    """The positions the plan's longest call needs: a strategy whose plan needs more than the model holds refuses.
    An escalation does not count: without it the strategy still answers."""
    return max((call.positions for call in plan if not call.escalation), default=0)
