"""engine.remote is torch-free, as its docstring says: a process that asks an endpoint need not load the runtime."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_importing_the_client_loads_neither_torch_nor_the_engines_runtime():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, engine.remote.client; print(' '.join(sorted(sys.modules)))"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    runtime = ("torch", "transformers", "triton", "numpy", "django", "engine.model", "engine.attention",
               "engine.strategies", "engine.evaluation", "engine.bench", "workloads")
    assert not [name for name in loaded if any(name == part or name.startswith(part + ".") for part in runtime)]
