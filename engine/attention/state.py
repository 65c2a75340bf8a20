"""Per-forward attention: dispatch by layer role, carry the shared selection, keep counts.

One `SparseAttention` lives for one generation (or one scoring pass). The model's
layers call `attend` in order; an `index` layer stores its selection (and, for the
torch reference, its gather plan), and the `reuse` layers of its group read them
back within the same forward pass. The backend (torch reference or Triton kernels)
is resolved on the first call, from the device the tensors are on.

What lives how long:
  per forward pass  the group's shared selection (`_shared`). It is dropped when layer 0
                    is called, the start of every forward, so a reuse layer can only read
                    a selection its own leader made from this forward's queries and keys
                    (a continuation from a cached prefix, engine.strategies.prefix, relies on this);
  per object        the counters (`indexer_calls`, `overlap`, `recall`) and the resolved backend.
  per generation    each indexer layer's latest top-k picks for the last query (`_picks`,
                    at the answer's top-k), which decode steps that do not re-select reuse
                    (AttentionConfig.decode_reselect); a forward of more than one token
                    (a prompt, a question after a cached prefix) always selects afresh.
Nothing else derived from the keys persists between forwards: the indexers score the
cache's keys afresh on every pass that selects (the pooled one re-pools them), so keys
that a cache gains or loses (a prefix's cache cut back after a question) are always
seen as they are.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import torch

from engine.attention.backends import AttentionBackend, resolve
from engine.core.attention_config import ANSWER_TAIL_TOKENS, AttentionConfig
from engine.attention.indexers import last_query_block, mass_scores
from engine.attention.layout import QueryLayout
from engine.core.layer_plan import LayerPlan
from engine.attention.reference import GatherPlan, dense_attention
from engine.attention.selection import block_index, index_with_picks


@dataclass
class Selection:
    layout: QueryLayout
    index: torch.Tensor  # [B, HKV, NQB, S]
    picked: torch.Tensor | None  # [B, HKV, NQB, K] the indexer's own top-k ids (-1 = none), None without an indexer
    plan: GatherPlan | None  # the torch reference's gather plan, shared by the group; None for the kernels
    # The pass's last ANSWER_TAIL_TOKENS queries again, selected at the answer's top-k (AttentionConfig.answer_topk)
    # from the same scores; None where that top-k is no larger, or without an indexer.
    answer: Selection | None = None

    @property
    def last_picks(self) -> torch.Tensor:
        """[B, HKV, 1, K]: the picks the pass's last query (the answer's next token) attended with."""
        return (self.answer or self).picked[:, :, -1:]


@dataclass
class OverlapTally:
    """Share of a layer's own fresh top-k that the shared selection already covers."""

    covered: int = 0
    fresh: int = 0

    @property
    def share(self) -> float | None:
        return self.covered / self.fresh if self.fresh else None


@dataclass
class SparseAttention:
    cfg: AttentionConfig
    plan: LayerPlan
    measure_overlap: bool = False
    measure_recall: bool = False
    backend_name: str | None = None  # None: COSTPLANNER_ATTENTION_BACKEND, else auto
    indexer_calls: Counter = field(default_factory=Counter)  # layer -> passes that steer attention
    overlap: dict[int, OverlapTally] = field(default_factory=dict)
    # Per layer: share of dense attention's own top-k blocks (by attention mass) that the layer's picks hold, at
    # the prefill's last query block (where the question sits).
    recall: dict[int, OverlapTally] = field(default_factory=dict)
    _shared: dict[int, Selection] = field(default_factory=dict)
    # Whether the next forward's last ANSWER_TAIL_TOKENS queries are a question's (AttentionConfig.answer_topk): the
    # caller turns it off for a prompt's earlier chunks and for a cached prefix, whose ends are no question, so that a
    # prompt fed in pieces selects as it does in one pass.
    answer_tail: bool = True
    _picks: dict[int, torch.Tensor] = field(default_factory=dict)  # index layer -> [B, HKV, 1, K] latest picks
    _decode_step: int = 0  # one-token forwards since the last prompt forward
    _backend: AttentionBackend | None = None

    def backend(self, device: torch.device) -> AttentionBackend:
        if self._backend is None:
            self._backend = resolve(self.backend_name, device, self.cfg.block_size)
        return self._backend

    @property
    def indexer_passes(self) -> int:
        return sum(self.indexer_calls.values())

    def mean_overlap(self) -> float | None:
        """Pooled over layers, heads and query blocks; None when nothing was measured."""
        return _pooled_share(self.overlap)

    def mean_recall(self) -> float | None:
        """Recall of dense attention's top blocks, pooled over layers and heads; None when nothing was measured."""
        return _pooled_share(self.recall)

    def attend(
        self,
        layer: int,
        q: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
        scale: float,
        mask: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """q [B, HQ, Tq, D], k/v [B, HKV, Tk, D] -> [B, HQ, Tq, D].

        mask is the model's own mask; only `native` layers need it (the sparse
        roles derive causality from positions, for a single unpadded sequence).
        """
        if layer == 0:
            self._shared = {}  # a new forward pass: no selection from the previous one may be reused
            self._decode_step = self._decode_step + 1 if q.shape[2] == 1 else 0
        role = self.plan.roles[layer]
        if role == "native":
            return dense_attention(q, k, v, scale, mask)
        if role == "dense":
            return dense_attention(q, k, v, scale)
        layout = QueryLayout(q_len=q.shape[2], kv_len=k.shape[2], block_size=self.cfg.block_size)
        if role == "window":
            selection = self._select(layout, q, k, scores=None)
        elif role == "index":
            if layout.q_len == 1 and layer in self._picks and not self.cfg.reselects_at(self._decode_step):
                selection = self._reuse_picks(layer, layout)
            else:
                selection = self._select(layout, q, k, scores=self._score(layer, q, k, layout))
                self._picks[layer] = selection.last_picks
            if self.cfg.mode == "index_share":
                # Only the current group's selection is needed: drop the previous one's
                # index and masks rather than hold every group's until the pass ends.
                self._shared = {layer: selection}
        else:
            selection = self._shared.get(self.plan.leaders[layer])
            if selection is None or selection.layout != layout:
                raise RuntimeError(f"layer {layer} found no selection from its group leader in this forward pass")
            if self.measure_overlap:
                self._tally_overlap(layer, q, k, selection)
        if self.measure_recall and layout.q_len > 1:
            self._tally_recall(layer, q, k, selection)
        backend = self.backend(q.device)
        if layout.q_len == 1:
            return backend.sparse_decode(q, k, v, selection.index, scale, self.cfg.block_size)
        out = backend.sparse_attention(q, k, v, selection.index, scale, self.cfg.block_size, plan=selection.plan)
        answer = selection.answer
        if answer is not None:  # the tail's queries once more, at the answer's budget: a few blocks' work
            n = answer.layout.q_len
            out[:, :, -n:] = backend.sparse_attention(q[:, :, -n:].contiguous(), k, v, answer.index, scale,
                                                      self.cfg.block_size, plan=answer.plan)
        return out

    def _score(self, layer: int, q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
        self.indexer_calls[layer] += 1
        # Named for torch.profiler: benchmarks/cpu_long_context.py reports the indexer's and the selection's share.
        with torch.profiler.record_function("costplanner.indexer"):
            return self._scorer(q.device)(q, k, layout)

    def _scorer(self, device: torch.device):
        return self.backend(device).scorer(self.cfg.indexer)

    def _select(self, layout: QueryLayout, q: torch.Tensor, k: torch.Tensor, scores) -> Selection:
        with torch.profiler.record_function("costplanner.selection"):
            answer_cfg = self.cfg.for_answer()
            batch, heads = q.shape[0], k.shape[1]
            if layout.q_len == 1:  # a decoded token is the answer's
                return self._selection(layout, *block_index(answer_cfg, layout, batch, heads, scores, q.device))
            answer = None
            if scores is not None and answer_cfg is not self.cfg and self.answer_tail:
                tail = QueryLayout(min(layout.q_len, ANSWER_TAIL_TOKENS), layout.kv_len, layout.block_size)
                # The tail's blocks are the layout's last ones (one absolute grid); block_index masks the scores in
                # place, so their rows are copied out first.
                tail_scores = scores[:, :, -tail.n_q_blocks:].clone()
                answer = self._selection(tail, *block_index(answer_cfg, tail, batch, heads, tail_scores, q.device))
            index, picked = block_index(self.cfg, layout, batch, heads, scores, q.device)
            return self._selection(layout, index, picked, answer)

    def _reuse_picks(self, layer: int, layout: QueryLayout) -> Selection:
        picked = self._picks[layer]  # only decoded tokens reuse picks: they select at the answer's budget
        return self._selection(layout, index_with_picks(self.cfg.for_answer(), layout, picked), picked)

    def _selection(self, layout: QueryLayout, index: torch.Tensor, picked: torch.Tensor | None,
                   answer: Selection | None = None) -> Selection:
        # Decode reads the index directly (reference.sparse_decode): no plan to build for one query.
        gathers = self.backend(index.device).uses_gather_plan and layout.q_len > 1
        plan = GatherPlan.from_index(index, layout) if gathers else None
        return Selection(layout, index, picked, plan, answer)

    def _tally_recall(self, layer: int, q: torch.Tensor, k: torch.Tensor, selection: Selection) -> None:
        # A diagnostic, like _tally_overlap: dense attention's block mass for the last query block alone
        # (one block of queries against every key, so cheap beside the prefill), its top-k among the blocks
        # the indexer may pick, and the share of those the layer's own picks hold.
        if selection.picked is None:
            return
        last = last_query_block(selection.layout)
        oracle = mass_scores(q[:, :, -last.q_len:], k, last)
        _, dense_top = block_index(self.cfg.for_answer(), last, q.shape[0], k.shape[1], oracle, q.device)
        picked = selection.last_picks
        real = dense_top >= 0
        covered = (dense_top[..., :, None] == picked[..., None, :]).any(-1) & real
        tally = self.recall.setdefault(layer, OverlapTally())
        tally.covered += int(covered.sum())
        tally.fresh += int(real.sum())

    def _tally_overlap(self, layer: int, q: torch.Tensor, k: torch.Tensor, shared: Selection) -> None:
        # A diagnostic indexer pass: not counted in indexer_calls, and its cost is
        # left out of timings by running with measure_overlap off.
        scores = self._scorer(q.device)(q, k, shared.layout)
        _, fresh = block_index(self.cfg, shared.layout, q.shape[0], k.shape[1], scores, q.device)
        real = fresh >= 0
        covered = (fresh[..., :, None] == shared.picked[..., None, :]).any(-1) & real
        tally = self.overlap.setdefault(layer, OverlapTally())
        tally.covered += int(covered.sum())
        tally.fresh += int(real.sum())


def _pooled_share(tallies: dict[int, OverlapTally]) -> float | None:
    covered = sum(t.covered for t in tallies.values())
    fresh = sum(t.fresh for t in tallies.values())
    return covered / fresh if fresh else None
