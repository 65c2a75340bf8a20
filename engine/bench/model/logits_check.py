"""On the device: the Triton kernels and the torch reference give the same logits through the whole model."""

from __future__ import annotations

import torch

from engine.attention import AttentionConfig, LayerPlan, SparseAttention
from engine.model.generate import forward
from engine.model.kv_cache import appending_cache
from engine.model.loader import LoadedModel

# bf16 through every layer of a random model: the two backends round differently, and the
# differences grow layer by layer. The bound is the kernels' own bf16 bound (tests/engine/kernels).
MAX_RELATIVE_ERROR = 1e-2


@torch.inference_mode()
def logits_check(lm: LoadedModel, base: AttentionConfig, tokens: int, modes, indexers) -> dict:
    """Each sparse mode and indexer asked for at `tokens` (prefilled in two chunks, so the chunked path is checked):
    the last chunk's logits from both backends, relative error and top-1 agreement."""
    ids = torch.randint(lm.config.vocab_size, (1, tokens), device=lm.device)
    results = {}
    for mode in modes:
        for indexer in indexers:
            cfg = base.replace(mode=mode, indexer=indexer)
            triton_logits, torch_logits = (_logits(lm, cfg, ids, name).float() for name in ("triton", "torch"))
            error = float((triton_logits - torch_logits).norm() / torch_logits.norm())
            top1 = float((triton_logits.argmax(-1) == torch_logits.argmax(-1)).float().mean())
            results[f"{mode}:{indexer}"] = {"relative_error": error, "top1_agreement": top1,
                                            "agrees": error <= MAX_RELATIVE_ERROR}
    return {"tokens": tokens, "bound": MAX_RELATIVE_ERROR, "variants": results,
            "agrees": all(r["agrees"] for r in results.values())}


def _logits(lm: LoadedModel, cfg: AttentionConfig, ids: torch.Tensor, backend: str) -> torch.Tensor:
    attention = SparseAttention(cfg, LayerPlan.build(cfg, lm.n_layers, frozenset()), backend_name=backend)
    cache = appending_cache(lm.config)
    half = ids.shape[1] // 2
    forward(lm, ids[:, :half], cache, attention)
    return forward(lm, ids[:, half:], cache, attention, logits_to_keep=0)[0]
