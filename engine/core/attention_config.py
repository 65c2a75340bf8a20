"""Attention settings: which keys each query block may see, and how they are chosen."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.core.errors import EngineError

MODES = ("dense", "sliding_window", "naive_sparse", "index_share")
INDEXERS = ("pooled_mass", "mass", "exact", "pooled")  # the runs' default first: forms and errors list them so

# Largest block and budget we accept: far beyond any context the engine can hold,
# small enough to catch a typo such as a stray extra zero or a negative number.
_MAX_TOKENS = 1 << 24
# The bounds of the settings a run may tune (engine.core.run_settings shows them to users); the window's lower bound
# is also the block size, checked below.
LIMITS = {"group_size": (1, 1024), "window": (1, _MAX_TOKENS), "topk": (0, _MAX_TOKENS), "global_blocks": (0, 4096)}
# A forward's last this many queries, where a prompt's question sits, select at the answer's top-k
# (AttentionConfig.answer_topk), not only the token that writes the answer's first word: the question's own tokens
# (the name it asks about) must read the asked passage too. Measured on a 4K distractor prompt: the last query block
# alone at top-k 2,048 still gave another company's fee, the question's 27 tokens at 2,048 gave the asked one. 128
# holds a probe's question and the chat template's closing tokens wherever they fall on the block grid.
ANSWER_TAIL_TOKENS = 128


@dataclass(frozen=True)
class AttentionConfig:
    """Hierarchical sparse attention settings (all sizes in tokens unless named otherwise).

    For each query block the keys attended are the union, deduplicated and causal, of
    `sink_blocks` blocks at the start, the last `window` tokens (rounded up to whole
    blocks, diagonal block included), `global_blocks` blocks spread evenly over the
    rest of the prefix, and the `topk` tokens' worth of blocks the indexer rates best
    among what is left. The union therefore never exceeds `budget_tokens`, whatever
    the context length.
    """

    mode: str = "index_share"
    block_size: int = 64
    window: int = 1024
    sink_blocks: int = 1
    global_blocks: int = 4
    topk: int = 2048
    group_size: int = 4
    dense_layers: int = 2
    indexer: str = "pooled_mass"
    # index_share only: the layers that run the indexer, each leading the sparse layers up to the next one
    # (groups of unequal sizes, as a calibration chose them: engine.evaluation.calibration). None: every group_size-th.
    anchor_layers: tuple[int, ...] | None = None
    # Decoding: the indexer layers re-select every `decode_reselect`-th new token; the tokens between reuse the
    # top-k the last selection made (sinks, window and globals still follow the new token). 0: never, the
    # question's selection (the prefill's last query block) serves the whole answer. 1: every token, as Quest does.
    # 1 by measurement: on the needle grid's prompts every interval (1, 8, 0) answered alike
    # (benchmarks/decode_reselect.py), but the sample comparison's 24-token answers on the default model found 5 of 9
    # with 1 (the five dense found) and 3 of 9 with 8. Every 8th token would cut the ledger's decode indexer cost 8x
    # (Qwen 0.5B at 1M tokens: 11.6 GFLOP a token against 1 of linear layers); a user may choose that trade.
    decode_reselect: int = 1
    # The answer's queries (a forward's last ANSWER_TAIL_TOKENS, where a question sits, and every decoded token) pick
    # top-k among this many tokens' worth of blocks when it is more than `topk`. The documents' other blocks keep
    # `topk`: a prefill's cost grows with their budget times the context, while one block's and each answer token's
    # grow with this alone. By measurement (benchmarks/README.md, the distractor grid): with five look-alike facts
    # the question's top-256 kept the four latest and lost an earlier asked one; the same documents asked at 1,024
    # or 2,048 found it at 4K, and at 8K where the documents' own budget had kept it (not at 10% depth, and no
    # answer changed on 20K tokens of held-out text: there the documents' budget decides).
    answer_topk: int = 2048

    def __post_init__(self) -> None:
        if self.anchor_layers is not None:
            anchors = self.anchor_layers
            if not anchors or any(not isinstance(a, int) or isinstance(a, bool) or a < 0 for a in anchors):
                raise EngineError(f"anchor layers must be layer numbers (0 or more), got {anchors!r}")
            if list(anchors) != sorted(set(anchors)):
                raise EngineError(f"anchor layers must be ascending without repeats, got {anchors!r}")
            object.__setattr__(self, "anchor_layers", tuple(anchors))  # a JSON list comes back as a tuple
        if self.mode not in MODES:
            raise EngineError(f"unknown attention mode {self.mode!r}; choose one of {', '.join(MODES)}")
        if self.indexer not in INDEXERS:
            raise EngineError(f"unknown indexer {self.indexer!r}; choose one of {', '.join(INDEXERS)}")
        _check_range("block size", self.block_size, 1, 4096)
        if self.block_size & (self.block_size - 1):
            raise EngineError(f"block size must be a power of two, got {self.block_size}")
        _check_range("window", self.window, max(self.block_size, LIMITS["window"][0]), LIMITS["window"][1])
        _check_range("top-k", self.topk, *LIMITS["topk"])
        _check_range("sink blocks", self.sink_blocks, 0, 1024)
        _check_range("global blocks", self.global_blocks, *LIMITS["global_blocks"])
        _check_range("group size", self.group_size, *LIMITS["group_size"])
        _check_range("dense layers", self.dense_layers, 0, 10_000)
        _check_range("decode re-selection interval", self.decode_reselect, 0, _MAX_TOKENS)
        _check_range("answer top-k", self.answer_topk, *LIMITS["topk"])

    def reselects_at(self, step: int) -> bool:
        """Whether the step-th one-token forward after a prefill (1, 2, ...) runs the indexer."""
        return self.decode_reselect > 0 and step % self.decode_reselect == 0

    @property
    def window_blocks(self) -> int:
        return -(-self.window // self.block_size)

    @property
    def topk_blocks(self) -> int:
        return -(-self.topk // self.block_size)

    @property
    def budget_blocks(self) -> int:
        """Most key blocks one query block attends to in a sparse layer of this mode."""
        extra = 0 if self.mode == "sliding_window" else self.global_blocks + self.topk_blocks
        return self.sink_blocks + self.window_blocks + extra

    @property
    def budget_tokens(self) -> int:
        return self.budget_blocks * self.block_size

    def for_answer(self) -> "AttentionConfig":
        """The settings the answer's queries select with: top-k raised to answer_topk where that is larger."""
        return self if self.answer_topk <= self.topk else self.replace(topk=self.answer_topk)

    def replace(self, **changes) -> "AttentionConfig":
        return dataclasses.replace(self, **changes)


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise EngineError(f"{name} must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise EngineError(f"{name} must be between {low} and {high}, got {value}")
