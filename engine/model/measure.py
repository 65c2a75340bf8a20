"""Measuring what a run cost on its device: seconds and peak memory.

On CUDA, time comes from CUDA events and memory from the allocator's peak. On the
CPU, time is wall-clock (perf_counter) and memory is the process's resident set,
sampled every few milliseconds by a thread, minus what it was at the start: torch's
CPU allocator keeps no peak of its own.

On the CPU the wall clock also counts the time other processes held the cores, so
a shared machine's load lands on whichever call ran while it lasted. Beside it the
meter keeps the time the process computed (`cpu_seconds`): its CPU time divided by
the threads torch computes with. That is what a comparison prices on a CPU; it is
honest only while OpenMP threads sleep rather than spin as they wait (see
engine/core/openmp.py).
"""

from __future__ import annotations

import functools
import platform
import threading
import time
from dataclasses import dataclass

import psutil
import torch

_RSS_SAMPLE_SECONDS = 0.005


@dataclass
class Measurement:
    device: str
    seconds: float = 0.0  # CUDA event time on CUDA, wall-clock time on the CPU
    peak_memory_bytes: int = 0
    memory_kind: str = ""
    cpu_seconds: float | None = None  # on the CPU: process CPU time / torch's threads; None on CUDA


def device_name(device: torch.device) -> str:
    """"NVIDIA H200", or "cpu (2 threads, AMD EPYC)": the CPU's model too, because the same two threads took twice
    as long for dense attention on a CPU without AMX, and a cost that moved between two runs must say the machine
    did. The price book's device class is the name's first word either way (device_profile.device_class)."""
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    model = cpu_model()
    return f"cpu ({torch.get_num_threads()} threads{', ' + model if model else ''})"


@functools.cache
def cpu_model() -> str:
    """The CPU's model name as Linux reports it ("AMD EPYC", "Intel(R) Xeon(R) Platinum 8488C"), or ""."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return platform.processor()


def seconds_basis(device: torch.device) -> str:
    """What a comparison's `seconds` on this device are: the figure it prices."""
    if torch.device(device).type == "cuda":
        return "CUDA event time"
    return f"computed CPU seconds (process CPU time / {torch.get_num_threads()} threads)"


class Meter:
    """Context manager: `with Meter(device) as m: ...`, then read m.result."""

    def __init__(self, device: torch.device):
        self.device = torch.device(device)
        self.result = Measurement(device=device_name(self.device))

    def __enter__(self) -> "Meter":
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
            torch.cuda.reset_peak_memory_stats(self.device)
            self._base = torch.cuda.memory_allocated(self.device)
            self._start = torch.cuda.Event(enable_timing=True)
            self._end = torch.cuda.Event(enable_timing=True)
            self._start.record()
        else:
            self._process = psutil.Process()
            self._base = self._process.memory_info().rss
            self._peak = self._base
            self._stop = threading.Event()
            self._sampler_cpu = 0.0
            self._cpu0 = time.process_time()  # before the sampler starts: its whole CPU time falls inside
            self._sampler = threading.Thread(target=self._sample, daemon=True)
            self._sampler.start()
            self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        if self.device.type == "cuda":
            self._end.record()
            torch.cuda.synchronize(self.device)
            self.result.seconds = self._start.elapsed_time(self._end) / 1000.0
            self.result.peak_memory_bytes = torch.cuda.max_memory_allocated(self.device) - self._base
            self.result.memory_kind = "cuda peak allocated above start"
        else:
            self.result.seconds = time.perf_counter() - self._t0
            self._stop.set()
            self._sampler.join()
            # time.process_time rather than psutil's cpu_times: it is the whole process's user+system
            # time (every thread, the OpenMP pool included) read from the kernel's per-process clock
            # in nanoseconds, where psutil reads /proc in clock ticks (10 ms), too coarse for a
            # decode step. The sampler's own CPU time is taken out: about 5% of a core, for as long
            # as the wall clock runs, so left in it would grow with the machine's load.
            cpu = time.process_time() - self._cpu0 - self._sampler_cpu
            self.result.cpu_seconds = cpu / torch.get_num_threads()
            self._peak = max(self._peak, self._process.memory_info().rss)
            self.result.peak_memory_bytes = self._peak - self._base
            self.result.memory_kind = "peak resident set above start (sampled)"

    def _sample(self) -> None:
        start = time.thread_time()
        while not self._stop.wait(_RSS_SAMPLE_SECONDS):
            self._peak = max(self._peak, self._process.memory_info().rss)
        self._sampler_cpu = time.thread_time() - start
