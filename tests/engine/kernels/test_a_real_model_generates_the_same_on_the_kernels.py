"""SmolLM2 continues a real prompt the same way on the Triton kernels as on the torch reference.

Every kernel runs inside a real model here: chunked prefill (the prompt arrives in
chunks against the KV cache), the pooled indexer in each group's first layer,
Index Share's reuse layers, and decode steps. On the CPU the kernels run in
Triton's interpreter (a few seconds a layer), which is why the prompt is
short and the budget small.
"""

import pytest
import torch

import engine.model.generate
from engine.attention import AttentionConfig
from engine.model.generate import encode_prompt, generate
from engine.model.loader import load_model

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def smollm2_fp32():
    """In bf16, 30 layers of rounding move the two backends' logits apart by up to a tenth of their
    range, too close to what a real error does; in fp32 only summation order differs."""
    return load_model(dtype=torch.float32)


def test_smollm2_generates_the_same_text_and_logits_on_both_backends(smollm2_fp32, gpl_text, monkeypatch):
    ids = encode_prompt(smollm2_fp32, gpl_text[:800] + "\n\nWho publishes this license?")
    # A budget well under the prompt, so the selection (not a dense fallback) decides.
    cfg = AttentionConfig(mode="index_share", block_size=16, window=16, topk=16, global_blocks=1)
    assert len(ids) > 3 * cfg.budget_tokens
    chunk = len(ids) // 2
    forward = engine.model.generate.forward
    texts, logits = {}, {}
    for backend in ("torch", "triton"):
        monkeypatch.setenv("COSTPLANNER_ATTENTION_BACKEND", backend)
        # Each forward's logits (the prefill chunks, then the decode steps): the text
        # alone hides an error that leaves three greedy tokens unchanged.
        logits[backend] = []
        monkeypatch.setattr(engine.model.generate, "forward",
                            lambda *args, seen=logits[backend], **kwargs: seen.append(forward(*args, **kwargs))
                            or seen[-1])
        result = generate(smollm2_fp32, ids, cfg, max_new_tokens=3, prefill_chunk=chunk)
        assert result.indexer_passes > 0
        texts[backend] = result.text
    assert texts["triton"] == texts["torch"]
    # One forward a prefill chunk, then one for each new token but the last.
    assert len(logits["triton"]) == len(logits["torch"]) == -(-len(ids) // chunk) + 2
    # fp32 in both: the backends' logits differ by about 1e-6 of their range; a kernel that skipped each
    # query block's first selected block put them 0.3 apart.
    for reference, kernel in zip(logits["torch"], logits["triton"], strict=True):
        assert torch.allclose(kernel, reference, rtol=0, atol=1e-3 * float(reference.abs().max()))
