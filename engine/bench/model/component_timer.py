"""The engine's attention with its time split: attention calls, and the indexer inside them.

`TimedAttention` is `SparseAttention` itself (the same dispatch, kernels and selection), with
each call bracketed. On CUDA the brackets are events on the current stream, read once the
forward has finished, so they add no synchronisation; on the CPU they are perf_counter.
  attention  every call the model makes through the attention interface (the indexer included)
  indexer    the indexer's scores and the selection built from them (top-k and the block index)
Everything else in a forward (projections, MLP, norms, RoPE, the cache, the head) is the
forward's time minus the attention's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch

from engine.attention.layout import QueryLayout
from engine.attention.state import Selection, SparseAttention


@dataclass
class _Brackets:
    device: torch.device
    pending: list = field(default_factory=list)
    seconds: float = 0.0

    def timed(self, fn, *args):
        if self.device.type == "cuda":
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            out = fn(*args)
            end.record()
            self.pending.append((start, end))
            return out
        begin = time.perf_counter()
        out = fn(*args)
        self.seconds += time.perf_counter() - begin
        return out

    def total(self) -> float:
        """Seconds so far; on CUDA, call after the work has been synchronised."""
        self.seconds += sum(s.elapsed_time(e) for s, e in self.pending) / 1e3
        self.pending.clear()
        return self.seconds


@dataclass
class TimedAttention(SparseAttention):
    device: torch.device = torch.device("cpu")
    _attention: _Brackets | None = None
    _indexer: _Brackets | None = None

    def __post_init__(self) -> None:
        self._attention = _Brackets(self.device)
        self._indexer = _Brackets(self.device)

    def attend(self, layer, q, k, v, scale, mask=None):
        return self._attention.timed(super().attend, layer, q, k, v, scale, mask)

    def _score(self, layer: int, q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
        return self._indexer.timed(super()._score, layer, q, k, layout)

    def _select(self, layout: QueryLayout, q: torch.Tensor, k: torch.Tensor, scores) -> Selection:
        if scores is None:  # a window layer's selection: no indexer ran
            return super()._select(layout, q, k, scores)
        return self._indexer.timed(super()._select, layout, q, k, scores)

    def seconds(self) -> dict[str, float]:
        """{'attention': s, 'indexer': s} since the last reset (the indexer: its scores plus its selection)."""
        return {"attention": self._attention.total(), "indexer": self._indexer.total()}
