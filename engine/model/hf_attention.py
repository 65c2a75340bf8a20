"""Plugging the engine's attention into Hugging Face transformers.

The model's own attention modules still compute Q, K, V, RoPE and the output
projection; transformers hands us the post-RoPE tensors through its attention
interface, with `module.layer_idx` and any extra keyword given to the model's
forward. The engine passes its `SparseAttention` as `sparse_attention=`, which is
how the shared selection flows across the layers of one forward pass.

The mask function is registered too: models with native local layers (Gemma3's
512-token sliding window) rely on it to build their window masks, and without one
transformers silently builds none.
"""

from __future__ import annotations

import torch
from transformers import AttentionInterface
from transformers.masking_utils import AttentionMaskInterface, sdpa_mask

ATTN_IMPLEMENTATION = "costplanner_sparse"


def sparse_attention_forward(
    module: torch.nn.Module,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    attention_mask: torch.Tensor | None,
    scaling: float | None = None,
    sparse_attention=None,
    **kwargs,
) -> tuple[torch.Tensor, None]:
    """query [B, HQ, Tq, D], key/value [B, HKV, Tk, D] -> ([B, Tq, HQ, D], None)."""
    if sparse_attention is None:
        raise RuntimeError("the engine's attention needs `sparse_attention=` in the model's forward call")
    if kwargs.get("softcap") is not None:
        raise RuntimeError("attention logit soft-capping is not supported by the engine's attention")
    scale = scaling if scaling is not None else query.shape[-1] ** -0.5
    out = sparse_attention.attend(module.layer_idx, query, key, value, scale, attention_mask)
    return out.transpose(1, 2).contiguous(), None


def register() -> str:
    """Register with transformers (idempotent) and return the implementation name."""
    AttentionInterface.register(ATTN_IMPLEMENTATION, sparse_attention_forward)
    AttentionMaskInterface.register(ATTN_IMPLEMENTATION, sdpa_mask)
    return ATTN_IMPLEMENTATION
