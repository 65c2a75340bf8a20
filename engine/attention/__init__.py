"""Hierarchical sparse attention with Index Share: a torch reference, and Triton kernels on CUDA."""

from engine.attention.config import INDEXERS, MODES, AttentionConfig
from engine.attention.plan import LayerPlan
from engine.attention.reference import block_sparse_attention, dense_attention
from engine.attention.state import SparseAttention

__all__ = [
    "INDEXERS",
    "MODES",
    "AttentionConfig",
    "LayerPlan",
    "SparseAttention",
    "block_sparse_attention",
    "dense_attention",
]
