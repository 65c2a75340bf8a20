"""API test helpers: a client per named actor (Alice, Bob at Acme; Charlie at Globex) and a finished run."""

import json

import pytest
from django.db import transaction
from django.utils import timezone

from workloads.comparisons import pricing
from workloads.comparisons.results import store_report
from workloads.models import ApiToken, ComparisonRun, Document

from ..conftest import MODEL


class Api:
    """The Django test client with a bearer token; paths are relative to /api."""

    def __init__(self, client, token: str | None):
        self.client, self.token = client, token

    @property
    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def get(self, path: str, **params):
        return self.client.get("/api" + path, params, headers=self.headers)

    def post(self, path: str, data=None, raw: str | bytes | None = None):
        body = raw if raw is not None else ("" if data is None else json.dumps(data))
        return self.client.post("/api" + path, body, content_type="application/json", headers=self.headers)

    def delete(self, path: str):
        return self.client.delete("/api" + path, headers=self.headers)

    def upload(self, path: str, files: list, **fields):
        return self.client.post("/api" + path, {"files": files, **fields}, headers=self.headers)


@pytest.fixture
def as_alice(client, alice):
    return Api(client, ApiToken.issue(alice))


@pytest.fixture
def as_bob(client, bob):
    return Api(client, ApiToken.issue(bob))


@pytest.fixture
def as_charlie(client, charlie):
    return Api(client, ApiToken.issue(charlie))


@pytest.fixture
def document(workload):
    return Document.objects.create(workload=workload, name="contract-a.txt", text="Notice period: 90 days.\n",
                                   tokens=120, lines=1, size_bytes=24)


def _ran(mode: str, *, seconds: float, tokens_in: int, accuracy: float, gated: bool, probe) -> dict:
    return {
        "mode": mode, "tokens_in": tokens_in, "tokens_out": 8, "calls": 1, "device": "cpu",
        "seconds": seconds, "wall_seconds": seconds + 0.5,
        "flops": {"linear": 1.0e12, "attention": 2.0e11, "indexer": 5.0e10 if mode != "dense" else 0.0,
                  "total": 1.25e12},
        "bytes": {"linear": 1.0e9, "attention": 1.0e8, "indexer": 0.0, "total": 1.1e9},
        "peak_memory_bytes": 512 * 2**20,
        "cost": {"device_hours": seconds / 3600, "device_dollars": 0.0, "api_dollars": 0.0},
        "quality": {"accuracy": accuracy, "n_probes": 1, "gated": gated, "by_kind": {"user": accuracy},
                    "top1_agreement": 0.97 if mode != "dense" else None,
                    "index_overlap": 0.8 if mode == "index_share" else None},
        "probes": [{"question": probe.question, "expected": probe.answer, "kind": probe.kind,
                    "output": "90 days" if accuracy else "=HYPERLINK(\"http://x\")", "correct": bool(accuracy)}],
    }


def compare_report(probe, device: str = "cpu") -> dict:
    """A small report shaped like engine.strategies.compare's `_report`: two strategies ran, one was refused."""
    return {
        "model": MODEL, "device": device, "max_positions": 8192,
        "documents": [{"name": "contract-a.txt", "tokens": 120}], "chunks": 1,
        "settings": {"chunk_tokens": 512, "chunk_overlap": 64, "gate_points": 5.0, "attention": {},
                     "answer_tokens": 16},
        "prices": {"per_device_hour": 0.1, "api_input_per_mtok": 0.1, "api_output_per_mtok": 0.3},
        "strategies": {
            "chunked": _ran("dense", seconds=36.0, tokens_in=1_000_000, accuracy=1.0, gated=False, probe=probe),
            "full_index_share": _ran("index_share", seconds=72.0, tokens_in=500_000, accuracy=0.0, gated=True,
                                     probe=probe),
            "full_dense": {"mode": "dense", "refused": "8,300 positions is longer than the model's 8,192"},
        },
    }


def finish_run(run: ComparisonRun, report: dict) -> ComparisonRun:
    """Do what the worker does after the engine: store the report as rows, mark it succeeded, price it."""
    with transaction.atomic():
        store_report(run, report)
        run.status, run.started_at, run.finished_at = ComparisonRun.Status.SUCCEEDED, timezone.now(), timezone.now()
        run.versions = {"engine": "test", "torch": "2.13.0"}
        run.save()
    pricing.price_run(run)
    run.refresh_from_db()
    return run


@pytest.fixture
def queued_run(workload, document, probe, alice):
    return ComparisonRun.objects.create(workload=workload, created_by=alice, strategies=["chunked", "full_index_share"],
                                        model=MODEL, units_of_work=2)


@pytest.fixture
def succeeded_run(queued_run, prices, probe):
    return finish_run(queued_run, compare_report(probe))
