"""On a CPU the comparison prices the seconds the process computed, keeps the wall time beside them, and
keeps each strategy's seconds per ledger TFLOP over its probes."""

import statistics

import pytest
import torch

from engine.strategies import compare as cmp
from engine.strategies.work import Prices
from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion

pytestmark = pytest.mark.model

DOCS = [DocumentText("memo.txt", "The monthly service fee is $4,500.\n\nDeliveries arrive on Tuesdays.\n\n" * 3)]
PROBES = [ProbeQuestion("What is the monthly service fee?", "$4,500"),
          ProbeQuestion("When do deliveries arrive?", "Tuesdays")]


@pytest.fixture(scope="module")
def report(smollm2):
    work = cmp.ComparisonWork(DOCS, PROBES, strategies=["full_dense", "chunked"], chunk_tokens=48, chunk_overlap=0,
                        prices=Prices(3.6, 0.15, 0.6), diagnostics=False)
    return cmp.compare(smollm2, work)


def test_it_prices_the_computed_seconds_and_says_so(report):
    threads = torch.get_num_threads()
    assert report["seconds_basis"] == f"computed CPU seconds (process CPU time / {threads} threads)"
    for s in report["strategies"].values():
        assert s["seconds_cpu"] > 0 and s["seconds"] == s["seconds_cpu"]
        assert s["cost"]["device_dollars"] == pytest.approx(s["seconds_cpu"] / 3600 * 3.6)
        assert s["wall_seconds"] > 0


def test_each_probes_calls_add_up_to_the_strategy(report):
    for s in report["strategies"].values():
        assert sum(a["seconds"] for a in s["probes"]) == pytest.approx(s["seconds"])
        assert sum(a["flops"] for a in s["probes"]) == pytest.approx(s["flops"]["total"])


def test_the_rate_is_the_spread_of_the_per_probe_seconds_per_tflop(report):
    for s in report["strategies"].values():
        samples = [a["seconds"] / (a["flops"] / 1e12) for a in s["probes"]]
        assert s["rate"] == pytest.approx(
            {"median": statistics.median(samples), "min": min(samples), "max": max(samples)})
        assert s["rate"]["min"] < s["rate"]["max"], "two probes never take exactly the same time"
