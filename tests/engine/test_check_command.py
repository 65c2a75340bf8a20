"""`python -m engine check`: the worst relative error per kernel, and a non-zero exit past the bounds."""

import argparse
import dataclasses
import subprocess
import sys

import pytest
import torch

from engine.evaluation import kernel_check as check
from engine.attention import backends


@pytest.mark.kernels
def test_it_passes_the_triton_kernels_in_the_interpreter_and_prints_each_kernel():
    result = subprocess.run(
        [sys.executable, "-m", "engine", "check", "--backend", "triton"], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "triton (interpreter) on cpu" in result.stdout or "triton on" in result.stdout
    for kernel in ("pooled_indexer", "exact_indexer", "sparse_prefill", "sparse_decode"):
        assert sum(kernel in line and line.rstrip().endswith("ok") for line in result.stdout.splitlines()) == 2


def test_it_exits_non_zero_when_a_kernel_leaves_outputs_unwritten(monkeypatch, capsys):
    real = backends.resolve("torch", torch.device("cpu"))

    def skips_the_last_query(q, k, v, block_idx, scale, block_size, plan=None, out=None):
        # A kernel that forgets one row: the NaN the check poisoned `out` with stays there.
        out[:, :, :-1] = real.sparse_attention(q, k, v, block_idx, scale, block_size)[:, :, :-1]
        return out

    broken = dataclasses.replace(real, sparse_attention=skips_the_last_query)
    monkeypatch.setattr(check, "resolve", lambda *args: broken)
    assert check.run(argparse.Namespace(backend="torch", seed=3)) == 1
    printed = capsys.readouterr().out
    assert "sparse_prefill   float32   nan" in printed and "FAIL" in printed
