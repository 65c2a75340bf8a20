"""Every kernel compiles for sm_90 as the engine launches it, with a config that does not
spill; its main loop's loads are prefetched and its products run on the tensor cores.

Triton's interpreter, which runs the other kernel tests on the CPU, accepts code the
compiler rejects; this compiles for real (ptxas from Triton's wheel), no GPU needed.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.kernels.conftest import ON_GPU

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(ON_GPU, reason="on a GPU the other kernel tests compile the kernels for real")


def run(script: Path) -> str:
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_every_kernel_compiles_for_hopper_without_spilling_prefetching_on_tensor_cores():
    report = run(ROOT / "scripts" / "compile_kernels.py")
    for kernel in (
        "sparse_prefill_kernel", "pooled_scores_kernel", "exact_scores_kernel", "decode_split_kernel",
        "merge_splits_kernel", "pooled_mass_kernel"
    ):
        for shape in ("Llama 3 8B", "Qwen2.5-7B", "Llama 3.2 1B"):
            assert any(line.startswith(kernel) and shape in line for line in report.splitlines()), (kernel, shape)
    assert "FAIL" not in report


def test_the_checks_tell_a_prefetched_tensor_core_loop_from_a_branchy_or_ieee_one():
    usage = {}
    for line in run(Path(__file__).with_name("planted_loops.py")).splitlines():
        name, async_copies, tensor_core_ops = line.split()
        usage[name] = (int(async_copies), int(tensor_core_ops))
    assert usage["branchy"][0] == 0 < usage["branch_free"][0]
    assert usage["branch_free_ieee"][1] == 0 < usage["branch_free"][1]
