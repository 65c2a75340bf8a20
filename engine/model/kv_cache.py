"""A KV cache that appends in place: transformers' DynamicCache, its full-attention layers writing new keys and
values into spare room instead of concatenating.

transformers' DynamicLayer.update concatenates the new token's keys onto the old ones, so every decode step copies
every layer's whole cache: on the default model at 16K tokens (2-core CPU, bf16), about 30 ms of a 125 ms Index
Share decode step, and it grows with the context while sparse attention's own work does not (issue 35). Here a
layer keeps a buffer with room to spare and its `keys` and `values` are views of the buffer's first rows; when the
room runs out the buffer grows by an eighth (at least 256 tokens), so the copies amortise to a few tokens' worth a
step. Everything else in transformers reads or slices `keys` and `values` (get_seq_length, crop), so it works on
the views unchanged. Sliding-window layers (Gemma3) keep their own class: they hold only their window.
"""

from __future__ import annotations

import torch
from transformers import DynamicCache
from transformers.cache_utils import DynamicLayer

_MIN_SPARE_TOKENS = 256


class AppendingLayer(DynamicLayer):
    """A DynamicLayer whose update writes into spare capacity: keys/values [B, H, T, D] are views of [B, H, room, D]."""

    _key_room: torch.Tensor | None = None
    _value_room: torch.Tensor | None = None

    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, *args, **kwargs):
        if not self.is_initialized:
            # What DynamicLayer.lazy_initialization sets, without calling it: its signature differs between the
            # transformers here (5.24) and the GPU image's (5.17).
            self.dtype, self.device, self.is_initialized = key_states.dtype, key_states.device, True
        self._key_room, self.keys = _append(self._key_room, self.keys, key_states)
        self._value_room, self.values = _append(self._value_room, self.values, value_states)
        return self.keys, self.values


def _append(room: torch.Tensor | None, held: torch.Tensor | None, new: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Write new [B, H, M, D] after the held rows; returns (the buffer, the view of its first held + M rows)."""
    n = held.shape[-2] if held is not None and held.dim() == 4 else 0  # None or empty before the first update
    need = n + new.shape[-2]
    # A view of the buffer's start shares its data pointer; anything else (a tensor transformers put there itself,
    # a buffer outgrown) is copied into a fresh buffer.
    outgrown = room is None or room.shape[-2] < need or room.shape[:2] != new.shape[:2]
    if outgrown or (n and held.data_ptr() != room.data_ptr()):
        fresh = new.new_empty(*new.shape[:-2], need + max(_MIN_SPARE_TOKENS, need // 8), new.shape[-1])
        if n:
            fresh[..., :n, :] = held
        room = fresh
    room[..., n:need, :] = new
    return room, room[..., :need, :]


def appending_cache(config) -> DynamicCache:
    """transformers' DynamicCache for this model config, with AppendingLayer in place of each DynamicLayer."""
    cache = DynamicCache(config=config)
    cache.layers = [AppendingLayer() if type(layer) is DynamicLayer else layer for layer in cache.layers]
    return cache
