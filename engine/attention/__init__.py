"""Hierarchical sparse attention with Index Share: a torch reference, and Triton kernels on CUDA.

The pipeline, one module a step (the first two are plain Python, in engine.core):
  engine.core.attention_config  AttentionConfig: the mode, the budget (window, strided global blocks, top-k),
             the group size
  engine.core.layer_plan  LayerPlan: what each layer does (dense, window, select and share, or reuse its group's
             selection)
  selection  the indexers score key blocks, top-k picks them, and the union with window and globals is built
  backends   the torch reference or the Triton kernels attend over the selected blocks
  state      SparseAttention: one forward's selections and counters, shared across a group's layers

Runtime: it may import engine.core and torch. The names below that need torch are imported on first use, so that
importing the package alone loads no torch (a process sets OpenMP's wait policy first: engine.core.openmp).
"""

from engine.core.attention_config import INDEXERS, MODES, AttentionConfig
from engine.core.layer_plan import LayerPlan

_TORCH_NAMES = {"block_sparse_attention": "reference", "dense_attention": "reference", "SparseAttention": "state"}

__all__ = ["INDEXERS", "MODES", "AttentionConfig", "LayerPlan", *_TORCH_NAMES]


def __getattr__(name: str):
    if name in _TORCH_NAMES:
        import importlib  # noqa: PLC0415

        return getattr(importlib.import_module(f"engine.attention.{_TORCH_NAMES[name]}"), name)
    raise AttributeError(f"module 'engine.attention' has no attribute {name!r}")
