"""The mass indexer has no kernel: on every backend it scores with the torch reference (pooled_mass has its own,
tests/engine/kernels/test_pooled_mass_indexer_matches_reference.py), and the Triton kernels attend over the blocks
either indexer selects, as the reference does."""

import pytest
import torch

from engine.attention import AttentionConfig, LayerPlan, SparseAttention
from engine.attention.indexers import mass_scores
from tests.engine.kernels.conftest import DEVICE, TOLERANCE, relative_error


def test_every_backend_scores_mass_with_the_reference():
    from engine.attention.backends import resolve

    for name in ("torch", "triton"):
        assert resolve(name, DEVICE).scorer("mass") is mass_scores


@pytest.mark.parametrize("indexer", ["mass", "pooled_mass"])
def test_a_group_on_the_kernels_matches_the_reference(indexer):
    cfg = AttentionConfig(mode="index_share", indexer=indexer, block_size=16, window=32, topk=32, global_blocks=1,
                          dense_layers=0, group_size=2)
    plan = LayerPlan.build(cfg, 2)
    q = torch.randn(1, 4, 200, 32, device=DEVICE)
    k, v = torch.randn(1, 2, 200, 32, device=DEVICE), torch.randn(1, 2, 200, 32, device=DEVICE)
    outs = {}
    for name in ("torch", "triton"):
        attention = SparseAttention(cfg, plan, backend_name=name)
        outs[name] = [attention.attend(layer, q, k, v, 32**-0.5) for layer in (0, 1)]
        assert attention.indexer_passes == 1
    for ours, ref in zip(outs["triton"], outs["torch"]):
        assert relative_error(ours, ref) < TOLERANCE[torch.float32]
