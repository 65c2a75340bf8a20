"""A question's tokens select from the cached keys as the second piece of a prefill split at the documents' end."""

import pytest
import torch
from transformers import DynamicCache

from engine.attention import AttentionConfig
from engine.model.generate import attention_for, encode_prompt, forward, generate
from engine.strategies.prefix import generate_from, prefill_prefix, shared_prefix_length
from tests.engine.conftest import relative_error

pytestmark = pytest.mark.model

QUESTIONS = ["Who may copy this license?", "What does the word 'you' mean here?"]


@pytest.mark.parametrize("mode", ["index_share", "naive_sparse", "sliding_window"])
def test_question_logits_equal_a_two_piece_prefill(smollm2, gpl_text, mode):
    # A budget of a few 16-token blocks over ~600 tokens, so that selection really chooses; the question and its
    # answer at 96 tokens' worth (AttentionConfig.answer_topk), the documents' end at the documents' 32.
    cfg = AttentionConfig(mode=mode, window=32, topk=32, global_blocks=1, block_size=16, indexer="exact",
                          answer_topk=96)
    first, second = (encode_prompt(smollm2, f"{gpl_text[:2500]}\n\nQuestion: {q}") for q in QUESTIONS)
    length = shared_prefix_length([first, second])
    assert len(second) > 4 * cfg.budget_tokens and len(second) - length < length  # sparse, and two pieces
    with torch.inference_mode():
        cache = DynamicCache(config=smollm2.config)
        attention = attention_for(smollm2, cfg)
        attention.answer_tail = False  # the documents' piece ends in no question
        forward(smollm2, torch.tensor([second[:length]]), cache, attention)
        attention.answer_tail = True
        expected = forward(smollm2, torch.tensor([second[length:]]), cache, attention, logits_to_keep=0)

        prefix = prefill_prefix(smollm2, first[:length], cfg)
        # Another question first: its tokens and its selections must not reach the next one.
        generate_from(smollm2, prefix, first[length:], max_new_tokens=6)
        got = forward(smollm2, torch.tensor([second[length:]]), prefix.cache, attention_for(smollm2, cfg),
                      logits_to_keep=0)
    assert got.shape == expected.shape == (1, len(second) - length, smollm2.config.vocab_size)
    assert relative_error(got, expected) < 1e-3


@pytest.mark.parametrize("mode", ["index_share", "naive_sparse"])
def test_the_answer_and_the_indexer_passes_are_the_chunked_prefills(smollm2, gpl_text, mode):
    cfg = AttentionConfig(mode=mode, window=32, topk=32, global_blocks=1, block_size=16, indexer="exact",
                          answer_topk=96)  # as above
    first, second = (encode_prompt(smollm2, f"{gpl_text[:2500]}\n\nQuestion: {q}") for q in QUESTIONS)
    length = shared_prefix_length([first, second])
    prefix = prefill_prefix(smollm2, second[:length], cfg)
    generate_from(smollm2, prefix, first[length:], max_new_tokens=6)
    cached = generate_from(smollm2, prefix, second[length:], max_new_tokens=8)
    chunked = generate(smollm2, second, cfg, max_new_tokens=8, prefill_chunk=length)
    assert cached.text == chunked.text
    # The question's own passes only: the chunked prefill's, less its first piece's (the prefix's, run once).
    assert cached.indexer_passes == chunked.indexer_passes - prefix.indexer_passes > 0
