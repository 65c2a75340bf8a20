"""OpenMP's wait policy: whether the CPU time of a torch call measures its work.

Torch computes on the CPU with an OpenMP thread pool (GNU libgomp). By default a
thread that reaches a barrier first spins there before it sleeps, and spinning is
CPU time. On a quiet machine the spin is short; when other processes hold the
cores, the thread waits for a descheduled partner and spins far longer, so CPU
time grows with the load as the wall clock does. With OMP_WAIT_POLICY=PASSIVE the
waiting threads sleep, and CPU time stays with the work.

Measured on this project's 2-core machine (torch 2.13.0 CPU, bf16, 2 threads), one
dense SmolLM2 call over the 2,040-token sample prompt, CPU time / 2 threads, three
calls each, without and then with two busy-loop processes:
  default policy   6.2-9.6 s without, 9.3-10.2 s with (the machine was shared, so
                   "without" already had others' load)
  PASSIVE          3.3-3.6 s without, 3.1-3.5 s with
The quiet-machine call takes 3.3 s of wall time.

libgomp reads the variable once, when it is loaded, so entry points that will load
torch (`python -m engine`, the Celery worker, the test suite, benchmarks) call
`wait_passively()` before anything imports torch. This module imports nothing heavy.
"""

from __future__ import annotations

import logging
import os
import sys

VARIABLE = "OMP_WAIT_POLICY"
PASSIVE = "PASSIVE"

log = logging.getLogger(__name__)


def wait_passively() -> None:
    """Make OpenMP threads sleep while they wait, unless the environment already chose a policy."""
    if "torch" in sys.modules and os.environ.get(VARIABLE) is None:
        log.warning("torch is already loaded: %s=%s comes too late for its OpenMP threads", VARIABLE, PASSIVE)
    os.environ.setdefault(VARIABLE, PASSIVE)


def waits_passively() -> bool:
    """Whether this process asked OpenMP to sleep while waiting (checked where CPU time is priced)."""
    return os.environ.get(VARIABLE, "").upper() == PASSIVE
