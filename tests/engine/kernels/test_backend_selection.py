"""Which backend runs: the kernels on CUDA, the reference on the CPU, an override for tests."""

import pytest
import torch

from engine.attention import AttentionConfig, LayerPlan, SparseAttention
from engine.attention.backends import resolve
from engine.core.errors import EngineError
from tests.engine.kernels.conftest import DEVICE, ON_GPU


def test_auto_keeps_the_reference_on_the_cpu(monkeypatch):
    monkeypatch.delenv("COSTPLANNER_ATTENTION_BACKEND", raising=False)
    assert resolve(None, torch.device("cpu")).name == "torch"


def test_the_environment_overrides_auto_and_the_kernels_run_compiled_on_cuda_or_interpreted_on_the_cpu(monkeypatch):
    # A process runs Triton one way only (tests/conftest.py): interpreted without CUDA, compiled with it.
    monkeypatch.setenv("COSTPLANNER_ATTENTION_BACKEND", "triton")
    backend = resolve(None, DEVICE)
    assert (backend.name, backend.interpreted) == ("triton", not ON_GPU)
    assert not backend.uses_gather_plan


def test_an_unknown_backend_is_refused_with_the_choices(monkeypatch):
    monkeypatch.setenv("COSTPLANNER_ATTENTION_BACKEND", "tpu")
    with pytest.raises(EngineError, match="auto, torch, triton"):
        resolve(None, torch.device("cpu"))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="auto picks the kernels only on CUDA")
def test_auto_runs_the_kernels_on_cuda_unless_the_blocks_are_too_small(monkeypatch):
    monkeypatch.delenv("COSTPLANNER_ATTENTION_BACKEND", raising=False)
    assert resolve(None, torch.device("cuda"), block_size=64).name == "triton"
    assert resolve(None, torch.device("cuda"), block_size=8).name == "torch"


@pytest.mark.parametrize("indexer", ["pooled", "exact"])
def test_a_group_on_the_kernels_builds_no_gather_plan_and_matches_the_reference(indexer):
    cfg = AttentionConfig(mode="index_share", block_size=16, window=32, topk=32, global_blocks=1, dense_layers=0,
                          indexer=indexer)
    q, k, v = (torch.randn(1, h, 160, 32, device=DEVICE) for h in (4, 2, 2))
    outputs = {}
    for name in ("torch", "triton"):
        attention = SparseAttention(cfg, LayerPlan.build(cfg, 2), backend_name=name)
        scorer = attention._scorer(q.device).__module__
        assert scorer == (
            "engine.attention.indexers" if name == "torch" else f"engine.attention.kernels.{indexer}_indexer"
        )
        outputs[name] = [attention.attend(layer, q, k, v, 0.2) for layer in (0, 1)]
        shared = next(iter(attention._shared.values()))
        assert (shared.plan is None) == (name == "triton")
    for ours, reference in zip(outputs["triton"], outputs["torch"], strict=True):
        # fp32 both ways; on a GPU the kernels' products are tf32x3, about fp32's accuracy.
        assert float((ours - reference).norm() / reference.norm()) < (1e-4 if ON_GPU else 1e-5)
