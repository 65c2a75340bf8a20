"""AttentionConfig.answer_topk: a forward's last ANSWER_TAIL_TOKENS queries (where a prompt's question sits) and
every decoded token pick among the answer's top-k; the documents' other queries keep their own. Each part must be
exactly what a uniform budget gives those queries, from the same scores."""

import pytest
import torch

from engine.attention import AttentionConfig, LayerPlan, SparseAttention
from engine.core.attention_config import ANSWER_TAIL_TOKENS
from tests.engine.conftest import random_qkv

BLOCK = 16
CFG = AttentionConfig(mode="index_share", window=32, topk=32, answer_topk=96, block_size=BLOCK, indexer="exact",
                      global_blocks=1)
PROMPT = 600


def _outputs(cfg: AttentionConfig, q, k, v) -> list[torch.Tensor]:
    """Layers 2 (the indexer) and 3 (reusing its selection) of a 4-layer plan whose first two are dense."""
    attention = SparseAttention(cfg, LayerPlan.build(cfg, 4))
    attention.attend(0, q, k, v, 0.2)
    return [attention.attend(layer, q, k, v, 0.2) for layer in (2, 3)], attention


@pytest.mark.parametrize("q_len", [PROMPT, 100, 40])  # a whole prompt; a question after a cached prefix, long and short
def test_the_tail_attends_as_the_answers_budget_and_the_rest_as_the_documents(q_len):
    torch.manual_seed(3)
    q, k, v = random_qkv(q_len, PROMPT)
    mixed, attention = _outputs(CFG, q, k, v)
    documents, _ = _outputs(CFG.replace(answer_topk=0), q, k, v)
    answer, _ = _outputs(CFG.replace(topk=96, answer_topk=0), q, k, v)
    tail = min(q_len, ANSWER_TAIL_TOKENS)
    for got, body, question in zip(mixed, documents, answer):
        torch.testing.assert_close(got[:, :, -tail:], question[:, :, -tail:])
        torch.testing.assert_close(got[:, :, :-tail], body[:, :, :-tail])
    # ... and the two budgets differ on random keys, so the comparison above can fail.
    assert not torch.allclose(documents[0][:, :, -tail:], answer[0][:, :, -tail:])
    picks = attention._shared[2]
    assert picks.picked.shape[-1] == 2 and picks.answer.picked.shape[-1] == 6  # top-k blocks: 32 and 96 tokens


def test_a_decoded_token_picks_at_the_answers_topk():
    torch.manual_seed(4)
    _, attention = _outputs(CFG, *random_qkv(PROMPT, PROMPT))
    q, k, v = random_qkv(1, PROMPT + 1)
    attention.attend(0, q, k, v, 0.2)
    attention.attend(2, q, k, v, 0.2)
    picked = attention._shared[2].picked
    assert picked.shape[-1] == 6 and bool((picked >= 0).all())


def test_an_answer_topk_below_the_documents_changes_nothing():
    torch.manual_seed(5)
    q, k, v = random_qkv(PROMPT, PROMPT)
    low, attention = _outputs(CFG.replace(answer_topk=16), q, k, v)
    same, _ = _outputs(CFG.replace(answer_topk=0), q, k, v)
    assert attention._shared[2].answer is None
    for a, b in zip(low, same):
        torch.testing.assert_close(a, b)
