"""The engine's KV cache appends into spare room, and holds exactly what transformers' own cache holds."""

import torch
from transformers import DynamicCache
from transformers.cache_utils import DynamicLayer

from engine.model.kv_cache import AppendingLayer, appending_cache


def _feed(layer, pieces):
    for k in pieces:
        keys, values = layer.update(k, -k)
    return keys, values


def test_it_holds_what_a_dynamic_layer_holds_through_prefill_decode_and_crop():
    torch.manual_seed(0)
    ours, theirs = AppendingLayer(), DynamicLayer()
    pieces = [torch.randn(1, 2, n, 8) for n in (300, 1, 1, 40)]
    for layer in (ours, theirs):
        _feed(layer, pieces)
        layer.crop(-41)  # a question and its answer cut back to the prefix
        _feed(layer, [pieces[3], pieces[1]])
    assert ours.get_seq_length() == theirs.get_seq_length() == 342
    assert torch.equal(ours.keys, theirs.keys) and torch.equal(ours.values, theirs.values)


def test_a_decode_step_copies_nothing_already_held():
    layer = AppendingLayer()
    keys, _ = layer.update(torch.randn(1, 2, 1000, 8), torch.randn(1, 2, 1000, 8))
    before = keys.data_ptr()
    for _ in range(100):  # an eighth of 1,000 tokens is room for 125 more
        keys, _ = layer.update(torch.randn(1, 2, 1, 8), torch.randn(1, 2, 1, 8))
    assert keys.data_ptr() == before and keys.shape[-2] == 1100


def test_it_grows_when_the_room_runs_out():
    layer = AppendingLayer()
    first = torch.randn(1, 2, 10, 8)
    layer.update(first, first)
    big = torch.randn(1, 2, 5000, 8)
    keys, _ = layer.update(big, big)
    assert keys.shape[-2] == 5010 and torch.equal(keys[..., :10, :], first) and torch.equal(keys[..., 10:, :], big)


def test_the_cache_keeps_sliding_layers_as_transformers_made_them():
    from transformers import Gemma3TextConfig

    config = Gemma3TextConfig(num_hidden_layers=6, sliding_window=512)  # five sliding layers, then a global one
    kinds = [type(layer) for layer in appending_cache(config).layers]
    theirs = [type(layer) for layer in DynamicCache(config=config).layers]
    assert kinds == [AppendingLayer if kind is DynamicLayer else kind for kind in theirs]
    assert AppendingLayer in kinds and len(set(kinds)) == 2
