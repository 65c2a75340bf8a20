"""Index Share runs the indexer once per group; naive sparse runs it in every sparse layer (here at every decode
step: decode_reselect=1)."""

import pytest

from engine.attention import AttentionConfig
from engine.model.generate import attention_for, generate

pytestmark = pytest.mark.model


@pytest.mark.parametrize(
    "mode,group,expected",
    [
        ("naive_sparse", 4, list(range(2, 30))),
        ("index_share", 4, [2, 6, 10, 14, 18, 22, 26]),
        ("index_share", 3, list(range(2, 30, 3))),
    ],
)
def test_smollm2_calls_the_indexer_in_the_planned_layers(smollm2, mode, group, expected):
    ids = smollm2.tokenizer("The quick brown fox jumps over the lazy dog. " * 30)["input_ids"]
    cfg = AttentionConfig(mode=mode, group_size=group, window=64, topk=64, block_size=16, decode_reselect=1)
    result = generate(smollm2, ids, cfg, max_new_tokens=3)
    assert result.new_tokens == 3 and result.decode_forwards == 2  # the last token needs no successor
    forwards = 1 + result.decode_forwards
    assert result.indexer_passes_by_layer == {layer: forwards for layer in expected}
    assert result.indexer_passes == len(expected) * forwards


def test_reuse_layers_attend_over_their_leaders_selection(smollm2):
    """A reuse layer's output equals attention over the index its leader selected: the pass's index for its queries,
    and the leader's answer-budget index for the last ANSWER_TAIL_TOKENS queries, where a question sits."""
    import torch

    from engine.attention import block_sparse_attention
    from engine.core.attention_config import ANSWER_TAIL_TOKENS

    cfg = AttentionConfig(mode="index_share", window=32, topk=32, answer_topk=64, block_size=16, indexer="exact")
    attention = attention_for(smollm2, cfg)
    torch.manual_seed(0)
    q, k, v = torch.randn(1, 9, 300, 64), torch.randn(1, 3, 300, 64), torch.randn(1, 3, 300, 64)
    attention.attend(2, q, k, v, 0.125)  # leader: runs the indexer
    q2, k2, v2 = torch.randn(1, 9, 300, 64), torch.randn(1, 3, 300, 64), torch.randn(1, 3, 300, 64)
    shared = attention._shared[2]
    out = attention.attend(3, q2, k2, v2, 0.125)
    head = 300 - ANSWER_TAIL_TOKENS
    whole = block_sparse_attention(q2, k2, v2, shared.index, 0.125, 16)
    assert torch.equal(out[:, :, :head], whole[:, :, :head])
    tail = block_sparse_attention(q2[:, :, head:].contiguous(), k2, v2, shared.answer.index, 0.125, 16)
    assert torch.equal(out[:, :, head:], tail)
    assert not torch.equal(tail, whole[:, :, head:])  # the tail's wider budget is really another selection
    assert attention.indexer_passes == 1
