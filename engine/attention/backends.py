"""Attention backends: the torch reference runs everywhere, Triton kernels run on CUDA.

A backend is the five hot functions of sparse attention, each with the signature
and shape docstring of its torch reference:
  sparse_attention    block-sparse attention over a block index (prefill, chunked prefill)
  sparse_decode       one query token per sequence against its selected blocks
  pooled_scores       the pooled indexer's block scores
  exact_scores        the exact indexer's block scores
  pooled_mass_scores  the pooled_mass indexer's block scores (the default indexer)

`resolve` picks one lazily: nothing here imports Triton or touches CUDA at import
time, because a Celery worker forks after importing its tasks. `auto` means Triton
on a CUDA tensor (when Triton is installed) and torch otherwise; the environment
variable COSTPLANNER_ATTENTION_BACKEND overrides it, which is how tests and
`python -m engine check` run the kernels on the CPU through Triton's interpreter.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

import torch

from engine.core.backend_names import BACKEND_ENV, check_name, triton_installed
from engine.core.errors import EngineError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AttentionBackend:
    name: str
    sparse_attention: Callable[..., torch.Tensor]
    sparse_decode: Callable[..., torch.Tensor]
    pooled_scores: Callable[..., torch.Tensor]
    exact_scores: Callable[..., torch.Tensor]
    pooled_mass_scores: Callable[..., torch.Tensor]
    interpreted: bool = False  # Triton kernels run by the interpreter (CPU tensors)

    def scorer(self, indexer: str) -> Callable[..., torch.Tensor]:
        """The block scores of an indexer by its name (engine.core.attention_config.INDEXERS)."""
        if indexer == "mass":
            # No kernel: every backend scores exact mass with the torch reference. It is the oracle
            # (calibration and the recall tally call it directly) and a comparison setting, never the
            # default, and it scores every causal (query, key) pair as dense attention does (docs/engine.md).
            from engine.attention.indexers import mass_scores

            return mass_scores
        return {"pooled": self.pooled_scores, "exact": self.exact_scores,
                "pooled_mass": self.pooled_mass_scores}[indexer]

    @property
    def uses_gather_plan(self) -> bool:
        """The torch reference reuses one gather plan across a group; the kernels read the index."""
        return self.name == "torch"


def resolve(name: str | None, device: torch.device, block_size: int | None = None) -> AttentionBackend:
    """The backend for tensors on `device`. name None reads COSTPLANNER_ATTENTION_BACKEND, then `auto`.

    `auto` keeps the torch reference for blocks smaller than the kernels take.
    """
    name = check_name(name or os.environ.get(BACKEND_ENV) or "auto")
    if name == "auto":
        name = "triton" if device.type == "cuda" and triton_installed() and _kernel_fits(block_size) else "torch"
    backend = _torch_backend() if name == "torch" else _triton_backend(device)
    log.info("attention backend: %s%s on %s", backend.name, " (interpreter)" if backend.interpreted else "", device)
    return backend


def _kernel_fits(block_size: int | None) -> bool:
    # Imported here, on CUDA only: the kernels' module imports Triton, which must not load at import time.
    from engine.attention.kernels.portable import MIN_KERNEL_BLOCK

    return block_size is None or block_size >= MIN_KERNEL_BLOCK


def _torch_backend() -> AttentionBackend:
    from engine.attention.indexers import exact_scores, pooled_mass_scores, pooled_scores
    from engine.attention.reference import block_sparse_attention, sparse_decode

    return AttentionBackend("torch", block_sparse_attention, sparse_decode, pooled_scores, exact_scores,
                            pooled_mass_scores)


def interpret_triton_without_cuda() -> None:
    """Without CUDA, Triton kernels can only run in Triton's interpreter: switch it on.

    Triton decides when a function is decorated whether it is compiled or interpreted,
    its own library functions included, and transformers imports Triton early (through
    torch._dynamo). Entry points (`python -m engine`, the test suite) therefore call
    this first thing, before anything imports transformers.
    """
    if not torch.cuda.is_available():
        os.environ.setdefault("TRITON_INTERPRET", "1")


def _triton_backend(device: torch.device) -> AttentionBackend:
    if not triton_installed():
        raise EngineError("the triton attention backend needs the triton package")
    interpreted = device.type != "cuda"
    if interpreted and os.environ.get("TRITON_INTERPRET") != "1":
        if "triton" in sys.modules:
            raise EngineError(
                "Triton kernels run on the CPU only in Triton's interpreter, and Triton was loaded "
                "without it: start the process with TRITON_INTERPRET=1"
            )
        os.environ["TRITON_INTERPRET"] = "1"
    from engine.attention.kernels.exact_indexer import exact_scores
    from engine.attention.kernels.pooled_indexer import pooled_scores
    from engine.attention.kernels.pooled_mass_indexer import pooled_mass_scores
    from engine.attention.kernels.sparse_decode import sparse_decode
    from engine.attention.kernels.sparse_prefill import block_sparse_attention

    return AttentionBackend("triton", block_sparse_attention, sparse_decode, pooled_scores, exact_scores,
                            pooled_mass_scores, interpreted=interpreted)
