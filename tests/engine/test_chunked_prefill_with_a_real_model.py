"""Prefilling in chunks against the KV cache gives the same continuation as one pass."""

import pytest

from engine.attention import AttentionConfig
from engine.model.generate import encode_prompt, generate

pytestmark = pytest.mark.model


@pytest.mark.parametrize("mode", ["dense", "index_share", "naive_sparse"])
def test_block_aligned_chunks_continue_like_one_pass(smollm2, gpl_text, mode):
    ids = encode_prompt(smollm2, gpl_text[:5000] + "\n\nWhat is this text about?")
    # The answer's top-k is the default 2,048: only the last chunk's tail selects at it, as in one pass.
    cfg = AttentionConfig(mode=mode, window=256, topk=256, global_blocks=2)
    whole = generate(smollm2, ids, cfg, max_new_tokens=12)
    chunked = generate(smollm2, ids, cfg, max_new_tokens=12, prefill_chunk=256)
    assert chunked.text == whole.text
    assert chunked.indexer_passes > whole.indexer_passes or mode == "dense"
