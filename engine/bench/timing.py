"""Median milliseconds of one call on one device: do_bench, CUDA events or perf_counter."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch

from engine.bench.bench_options import Reps

LONG_CALL_MS = 10.0
MAX_SAMPLES = 50


@dataclass(frozen=True)
class Timing:
    ms: float
    method: str
    samples: int | None  # None: do_bench chose the count


def time_call(fn: Callable[[], object], device: torch.device, reps: Reps) -> Timing:
    """Median milliseconds of fn on device, warm-up (compilation, autotuning, allocation) excluded.

    A CUDA device must be the current one (bench.run makes it so): do_bench and the events time its current stream.
    """
    fn()
    _sync(device)
    first = _once(fn, device)
    if device.type == "cuda" and first < LONG_CALL_MS:
        from triton.testing import do_bench

        ms = do_bench(fn, warmup=reps.warmup_ms, rep=reps.rep_ms, return_mode="median")
        return Timing(ms, "triton.testing.do_bench median", None)
    n = max(reps.min_samples, min(MAX_SAMPLES, int(reps.rep_ms / max(first, 1e-3))))
    samples = [first] + [_once(fn, device) for _ in range(n - 1)]
    method = "CUDA events median" if device.type == "cuda" else "perf_counter median"
    return Timing(statistics.median(samples), method, len(samples))


def _once(fn: Callable[[], object], device: torch.device) -> float:
    if device.type == "cuda":
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)
    begin = time.perf_counter()
    fn()
    return (time.perf_counter() - begin) * 1e3


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def release(device: torch.device) -> None:
    """Hand cached blocks back (after a failure, and between lengths): the next one starts from a clean pool."""
    if device.type == "cuda":
        torch.cuda.empty_cache()
