"""A history for benchmarks/page_load.py to list and chart: succeeded runs of a workload, stored as the worker
stores a report (workloads.comparisons.results) and priced from the price book.

The figures are made up, deterministically: they are what the pages show, not something measured. Every run holds
each of the sample's eight strategies (one refused, as a too-long document makes it) with an answer to each probe.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from workloads.comparisons import pricing
from workloads.comparisons.results import store_report
from workloads.models import ComparisonRun, Workload

STRATEGIES = ("retrieval", "routed", "chunked", "full_index_share", "full_index_share_cached", "full_naive_sparse",
              "full_dense", "full_sliding_window")
REFUSED = "full_sliding_window"


def _strategy(name: str, probes: list, rng: random.Random) -> dict:
    if name == REFUSED:
        return {"mode": "sliding_window", "refused": "a made-up refusal: longer than the model's positions"}
    seconds = rng.uniform(10, 60)
    right = [rng.random() < 0.7 for _ in probes]
    linear, attention, indexer = rng.uniform(2e11, 6e11), rng.uniform(1e11, 4e11), rng.uniform(0, 5e10)
    return {
        "mode": "dense", "tokens_in": rng.randint(1500, 9000), "tokens_out": rng.randint(20, 200),
        "calls": rng.randint(1, 12), "device": "cpu", "seconds": seconds, "wall_seconds": seconds * 1.2,
        "seconds_cpu": seconds, "rate": {"median": 60.0, "min": 55.0, "max": 70.0},
        "flops": {"linear": linear, "attention": attention, "indexer": indexer,
                  "total": linear + attention + indexer},
        "bytes": {"total": 1.1e9}, "peak_memory_bytes": 300 * 2**20,
        "quality": {"accuracy": sum(right) / len(right), "n_probes": len(right), "ci95": [0.3, 0.9], "f1": 0.7,
                    "gate": "within", "gated": False, "top1_agreement": None, "index_overlap": None},
        "probes": [{"question": p.question, "expected": p.answer, "kind": p.kind,
                    "output": p.answer if ok else "NONE", "correct": ok} for p, ok in zip(probes, right)],
    }


def add_history(workload: Workload, runs: int) -> None:
    """Give `workload` succeeded runs until it has `runs` of them."""
    probes = list(workload.probes.all())
    have = workload.runs.filter(status=ComparisonRun.Status.SUCCEEDED).count()
    for i in range(have, runs):
        rng = random.Random(i)
        report = {"model": workload.target_model, "device": "cpu", "max_positions": 8192, "documents": [],
                  "chunks": 3, "settings": {}, "prices": {},
                  "strategies": {name: _strategy(name, probes, rng) for name in STRATEGIES}}
        with transaction.atomic():
            run = ComparisonRun.objects.create(workload=workload, strategies=list(STRATEGIES),
                                               model=workload.target_model, units_of_work=workload.units_of_work(),
                                               status=ComparisonRun.Status.SUCCEEDED, started_at=timezone.now())
            store_report(run, report)
            run.finished_at = timezone.now()
            run.save()
        pricing.price_run(run)
