"""What produced a measurement: library versions and the engine's own revision."""

from __future__ import annotations

import importlib.metadata
import platform
import subprocess
from pathlib import Path

import torch
import transformers


def versions() -> dict[str, str]:
    found = {
        "engine": _revision(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "cuda": torch.version.cuda or "none",
    }
    try:
        found["triton"] = importlib.metadata.version("triton")
    except importlib.metadata.PackageNotFoundError:
        found["triton"] = "none"
    return found


def _revision() -> str:
    """The git commit of the engine, with "-dirty" where the files differ from it, or "unknown" where it was
    deployed without git (a container image). A copy of the tree with newer changes than its git metadata (as on
    the lent GPU machine, 2026-12-04) would otherwise pass for the older commit."""
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=12"], cwd=Path(__file__).parent,
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 else "unknown"
