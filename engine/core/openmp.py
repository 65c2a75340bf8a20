"""OpenMP's wait policy: whether the CPU time of a torch call measures its work.

Torch computes on the CPU with an OpenMP thread pool (GNU libgomp). By default a
thread that reaches a barrier first spins there before it sleeps, and spinning is
CPU time. On a quiet machine the spin is short; when other processes hold the
cores, the thread waits for a descheduled partner and spins far longer, so CPU
time grows with the load as the wall clock does. With OMP_WAIT_POLICY=PASSIVE the
waiting threads sleep, and CPU time stays with the work.

Measured on this project's 2-core machine (torch 2.13.0 CPU, bf16, 2 threads, shared
with other engineers' test runs), SmolLM2 with dense attention on the 2,040-token
sample prompt, 24 answer tokens, computed seconds (CPU time / 2 threads):
  default policy, quietest calls      prefill 2.60 s, decode 1.73 s (wall 2.63, 1.75)
  default policy, load average ~5     prefill 3.4-6.0 s, decode 7.7-11.4 s
  PASSIVE, quietest calls             prefill 2.45 s, decode 1.52 s (wall 2.66, 2.02)
  PASSIVE, load average ~5            prefill 2.7-2.9 s, decode 1.6-1.8 s
One call (that prompt, 8 answer tokens) beside two busy-loop processes: default
9.3-10.2 s, PASSIVE 3.1-3.5 s. (Fresh processes per policy, the calls of each timed
with time.process_time around engine.model.generate.generate.) So spinning inflates CPU time with the load (decode,
many short parallel regions, most), and PASSIVE keeps it with the work. Its own cost is wall time on a
quiet machine: about 1% on prefill and 15% on decode (threads wake from sleep at
every region); under load it is faster, as no thread burns a core its partner needs.

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
