"""Busy-loop processes beside a benchmark, to measure it under load (noise.py, rerun_spread.py)."""

from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager

# A busy loop that ends by itself even if the benchmark is killed before it can stop it.
BUSY_LOOP = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end: pass"


@contextmanager
def busy_processes(count: int, longest_seconds: float):
    """`count` busy-loop processes while the block runs, each killed when it ends and gone by `longest_seconds`."""
    procs = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP, str(longest_seconds)]) for _ in range(count)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()
