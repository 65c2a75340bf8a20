"""SmolLM2 continues a real prompt the same way on the Triton kernels as on the torch reference.

Every kernel runs inside a real model here: chunked prefill (the prompt arrives in
two chunks against the KV cache), the pooled indexer in each group's first layer,
Index Share's reuse layers, and decode steps. On the CPU the kernels run in
Triton's interpreter (a few seconds a layer), which is why the prompt is
short and the budget small.
"""

import pytest

from engine.attention import AttentionConfig
from engine.generate import encode_prompt, generate

pytestmark = pytest.mark.model


def test_smollm2_generates_the_same_text_on_both_backends(smollm2, gpl_text, monkeypatch):
    ids = encode_prompt(smollm2, gpl_text[:1600] + "\n\nWho publishes this license?")
    # A budget well under the prompt, so the selection (not a dense fallback) decides.
    cfg = AttentionConfig(mode="index_share", block_size=16, window=32, topk=32, global_blocks=1)
    texts = {}
    for backend in ("torch", "triton"):
        monkeypatch.setenv("COSTPLANNER_ATTENTION_BACKEND", backend)
        result = generate(smollm2, ids, cfg, max_new_tokens=3, prefill_chunk=len(ids) // 2)
        assert result.indexer_passes > 0
        texts[backend] = result.text
    assert len(ids) > 3 * cfg.budget_tokens
    assert texts["triton"] == texts["torch"]
