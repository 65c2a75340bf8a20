"""Helpers for page tests: finished runs built from a report shaped like the engine's, and the page's HTML."""

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone

from tests.workloads.conftest import MODEL, PASSWORD
from workloads.comparisons import pricing
from workloads.comparisons.results import store_report
from workloads.models import ComparisonRun
from workloads.models.periods import period_of

VERSIONS = {"engine": "abc123", "python": "3.11.9", "torch": "2.13.0", "transformers": "5.24.0", "cuda": "none",
            "triton": "none"}


def strategy(mode: str, *, seconds: float, accuracy: float, answers: list[dict], linear: float = 4e11,
             attention: float = 2e11, indexer: float = 0.0, gated: bool = False, top1: float | None = None,
             overlap: float | None = None, tokens_in: int = 2000, tokens_out: int = 20, calls: int = 1) -> dict:
    """One strategy's entry in an engine report (engine/strategies/compare.py `_report`)."""
    return {
        "mode": mode, "tokens_in": tokens_in, "tokens_out": tokens_out, "calls": calls, "device": "cpu",
        "seconds": seconds, "wall_seconds": seconds * 1.1,
        "flops": {"linear": linear, "attention": attention, "indexer": indexer, "total": linear + attention + indexer},
        "bytes": {"linear": 1e9, "attention": 1e8, "indexer": 0.0, "total": 1.1e9},
        "peak_memory_bytes": 300 * 2**20,
        "cost": {"device_hours": seconds / 3600, "device_dollars": 0.0, "api_dollars": 0.0},
        "quality": {"accuracy": accuracy, "n_probes": len(answers), "gated": gated, "by_kind": {},
                    "top1_agreement": top1, "index_overlap": overlap},
        "probes": answers,
    }


def answer(probe, output: str, correct: bool) -> dict:
    return {"question": probe.question, "expected": probe.answer, "kind": probe.kind, "output": output,
            "correct": correct}


def report(strategies: dict, device: str = "cpu") -> dict:
    return {"model": MODEL, "device": device, "max_positions": 8192, "documents": [], "chunks": 3,
            "settings": {}, "prices": {}, "strategies": strategies}


def standard_report(probe, device: str = "cpu", *, index_share_seconds: float = 36.0,
                    index_share_right: bool = True) -> dict:
    """Index Share, dense and chunked measured, and full_sliding_window refused."""
    return report({
        "full_index_share": strategy("index_share", seconds=index_share_seconds,
                                     accuracy=1.0 if index_share_right else 0.0,
                                     answers=[answer(probe, "90 days" if index_share_right else "30 days",
                                                     index_share_right)],
                                     indexer=5e10, top1=0.97, overlap=0.81),
        "full_dense": strategy("dense", seconds=72.0, accuracy=1.0, answers=[answer(probe, "90 days", True)],
                               attention=8e11),
        "chunked": strategy("dense", seconds=18.0, accuracy=0.0, answers=[answer(probe, "NONE", False)], gated=True,
                            calls=4),
        "full_sliding_window": {"mode": "sliding_window", "refused": "longer than the model's 8192 positions"},
    }, device)


def make_run(workload, the_report: dict | None = None, *, status=ComparisonRun.Status.SUCCEEDED,
             created_at: dt.datetime | None = None, versions: dict | None = None, **fields) -> ComparisonRun:
    """A run as the task leaves it: report stored as rows, then priced (when it succeeded)."""
    strategies = list(the_report["strategies"]) if the_report else ["chunked", "full_index_share"]
    run = ComparisonRun.objects.create(workload=workload, strategies=strategies, model=MODEL,
                                       units_of_work=fields.pop("units_of_work", 4), status=status,
                                       versions=VERSIONS if versions is None else versions, **fields)
    if created_at is not None:  # queued then: in that day's period
        period = period_of(workload, created_at)
        ComparisonRun.objects.filter(pk=run.pk).update(created_at=created_at, period=period.label,
                                                       period_start=period.start)
        run.refresh_from_db()
    if the_report is not None:
        with transaction.atomic():
            store_report(run, the_report)
            run.finished_at = timezone.now()
            run.save()
        pricing.price_run(run)
    return run


@pytest.fixture
def password():
    return PASSWORD


def html(response) -> str:
    """The response's HTML with runs of whitespace collapsed, so assertions do not depend on template layout."""
    return " ".join(response.content.decode().split())
