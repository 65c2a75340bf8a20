"""At the default model's shape (Qwen2.5-0.5B: 24 layers, 14 query heads over 2 KV heads of 64) Index Share runs the
indexer once per group of layers and naive sparse in every sparse layer, for the prefill and each decode step that
re-selects (here every one)."""

import pytest

from engine.attention import AttentionConfig
from engine.model.generate import generate

pytestmark = pytest.mark.model


@pytest.mark.parametrize("mode,group,expected", [
    ("naive_sparse", 4, list(range(2, 24))),
    ("index_share", 4, [2, 6, 10, 14, 18, 22]),
    ("index_share", 3, list(range(2, 24, 3))),
])
def test_qwen2_calls_the_indexer_in_the_planned_layers(qwen, mode, group, expected):
    ids = qwen.tokenizer("The quick brown fox jumps over the lazy dog. " * 30)["input_ids"]
    cfg = AttentionConfig(mode=mode, group_size=group, window=64, topk=64, block_size=16, decode_reselect=1)
    result = generate(qwen, ids, cfg, max_new_tokens=3)
    forwards = 1 + result.decode_forwards
    assert result.indexer_passes_by_layer == {layer: forwards for layer in expected}
    assert result.indexer_passes == len(expected) * forwards
