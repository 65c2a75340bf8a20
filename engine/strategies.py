"""The strategies a comparison runs, by identifier and by the name a manager reads. Plain Python (no torch),
so that the web process, the PDF and the engine share one list.

  full_<mode>  every document and the question in one call, with the engine's attention in that mode.
  chunked      map-reduce: every chunk is asked, then one more call reduces the chunks' answers.
"""

from __future__ import annotations

from engine.errors import EngineError

FULL_MODES = {
    "full_index_share": "index_share",
    "full_naive_sparse": "naive_sparse",
    "full_dense": "dense",
    "full_sliding_window": "sliding_window",
}
STRATEGIES = (*FULL_MODES, "chunked")
# Identifiers stay in the API and JSON; pages, mails and the PDF show these.
NAMES = {
    "full_index_share": "Full context with Index Share",
    "full_naive_sparse": "Full context with naive sparse attention",
    "full_dense": "Full context with dense attention",
    "full_sliding_window": "Full context with a sliding window",
    "chunked": "Chunked",
}
# The most tokens any answer may take: probes have short answers (a number, a name, a file name).
ANSWER_TOKENS = 24


def name(strategy: str) -> str:
    """The strategy's name for people ("Chunked"); an unknown identifier as it is."""
    return NAMES.get(strategy, strategy)


def check_chunk_tokens(chunk_tokens: int, max_positions: int) -> None:
    # The chunk, the question and the answer share the model's positions.
    room = max_positions - 256
    if not 16 <= chunk_tokens <= room:
        raise EngineError(
            f"chunk size must be between 16 and {room} tokens: the model has {max_positions} positions, "
            f"and the question and answer need room; got {chunk_tokens}"
        )
