"""The name of this machine's CPU, for every benchmark's "device", and what a model benchmark's JSON says of its run (no
torch: the page benchmarks load none)."""

from __future__ import annotations

import platform
from datetime import datetime, timezone
from pathlib import Path


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"


def provenance(model: str, torch_version: str, started: datetime) -> dict:
    """Which model ran, on which CPU and torch, from when to now (UTC): the head of a model benchmark's JSON."""
    return {"model": model, "machine": cpu_model(), "torch": torch_version,
            "started": started.isoformat(timespec="seconds"),
            "ended": datetime.now(timezone.utc).isoformat(timespec="seconds")}
