"""The name of this machine's CPU, for every benchmark's "device" (no torch: the page benchmarks load none)."""

from __future__ import annotations

import platform
from pathlib import Path


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown CPU"
