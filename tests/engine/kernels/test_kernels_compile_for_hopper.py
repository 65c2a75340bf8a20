"""Every kernel compiles for sm_90 at the Llama 3 and Qwen2.5 head layouts, with a tiling that does not spill.

Triton's interpreter, which runs the other kernel tests on the CPU, accepts code the
compiler rejects; this compiles for real (ptxas from Triton's wheel), no GPU needed.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.kernels.conftest import ON_GPU

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "compile_kernels.py"


@pytest.mark.skipif(ON_GPU, reason="on a GPU the other kernel tests compile the kernels for real")
def test_every_kernel_compiles_for_hopper_without_spilling():
    result = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    for kernel in ("sparse_prefill", "sparse_decode", "pooled_indexer"):
        assert f"{kernel} " in result.stdout
