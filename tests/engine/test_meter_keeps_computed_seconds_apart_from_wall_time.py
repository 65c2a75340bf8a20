"""On the CPU the meter keeps the seconds the process computed (CPU time / threads) beside the wall time:
time spent waiting for the cores is on the wall clock only."""

import time

import torch

from engine.model.measure import Meter


def test_waiting_counts_on_the_wall_clock_only():
    with Meter(torch.device("cpu")) as m:
        time.sleep(1.0)
    assert m.result.seconds >= 1.0
    # Not even the meter's own memory sampler (about 5% of a core while it runs) is counted.
    assert m.result.cpu_seconds < 0.005


def test_computing_counts_on_both():
    a = torch.randn(512, 512)
    with Meter(torch.device("cpu")) as m:
        for _ in range(200):
            a = torch.tanh(a @ a)
    assert m.result.cpu_seconds > 0.05
    # CPU time shared out over the threads cannot exceed the wall time (plus the clocks' rounding).
    assert m.result.cpu_seconds <= m.result.seconds * 1.05
