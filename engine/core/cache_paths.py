"""Where converted models are kept: ENGINE_CACHE_DIR, or .cache at the repository root. Torch-free."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """ENGINE_CACHE_DIR, or .cache at the repository root whatever the working directory."""
    return Path(os.environ.get("ENGINE_CACHE_DIR") or Path(__file__).resolve().parents[2] / ".cache").resolve()


def calibration_path(model_name: str, settings_digest: str) -> Path:
    """Where a model's calibrated anchor layers (engine.evaluation.calibration) are kept, one file per selection
    settings."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in model_name)
    return cache_dir() / "calibration" / f"{safe}-{settings_digest}.json"
