"""Where converted models are kept: ENGINE_CACHE_DIR, or .cache at the repository root. Torch-free."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """ENGINE_CACHE_DIR, or .cache at the repository root whatever the working directory."""
    return Path(os.environ.get("ENGINE_CACHE_DIR") or Path(__file__).resolve().parents[2] / ".cache").resolve()
