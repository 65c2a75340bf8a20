"""A run on a CPU worker is projected at the CPU's measured speed at each length, not at one rate: the committed CPU
profile (benchmarks/profiles/cpu.json, from benchmarks/cpu_long_context.py) scales the run's own rate, and the page
labels each length's rate measured, interpolated or extrapolated."""

import json
import math
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.comparisons.length_rates import length_rates
from workloads.comparisons.planning import measured_rates, project

PROFILE = json.loads((Path(__file__).resolve().parents[3] / "benchmarks" / "profiles" / "cpu.json").read_text())
RUN_TOKENS = 6_000  # between the profile's 4,096 and 8,192 points: the run's anchor is interpolated


def _rate(key: str, tokens: int) -> float:
    """A whole question's measured seconds per ledger FLOP at one of the profile's lengths."""
    point = PROFILE["strategies"][key][str(tokens)]
    return point["seconds_per_question"] / (point["prefill_flops"] + 24 * point["decode_flops_per_token"])


def _cpu_run(workload, probe):
    the_report = standard_report(probe)
    the_report["documents"] = [{"name": "msa.txt", "tokens": RUN_TOKENS}]
    return make_run(workload, the_report)


def test_whole_documents_are_priced_at_the_profiles_rate_at_each_length(workload, probe, prices):
    run = _cpu_run(workload, probe)
    projection = project(workload)

    key = f"index_share:{run.attention_config().indexer}"
    share = (math.log(RUN_TOKENS) - math.log(4096)) / (math.log(8192) - math.log(4096))
    at_run = _rate(key, 4096) + share * (_rate(key, 8192) - _rate(key, 4096))
    # From 32K on, the longest measured point's rate (32,704 tokens) holds.
    factor = _rate(key, 32704) / at_run
    rate = measured_rates(run)["full_index_share"]
    for flops, dollars in zip(projection.flops["full_index_share"], projection.device_dollars["full_index_share"]):
        assert dollars == pytest.approx(flops * rate * factor / 3600 * 0.10)
    assert factor != pytest.approx(1, abs=0.02)  # the profile really moves the price
    # Asking every chunk makes calls of the chunk's size at every length: its one measured rate stands.
    chunked = measured_rates(run)["chunked"]
    assert projection.device_dollars["chunked"] == pytest.approx(
        [f * chunked / 3600 * 0.10 for f in projection.flops["chunked"]])
    assert projection.rate_basis == ["measured"] + ["extrapolated"] * 5
    note = next(n for n in projection.notes if n.startswith("Whole-document device seconds per FLOP"))
    assert PROFILE["device"] in note and "6,000 tokens" in note and "hold the 32,704-token rate" in note


def test_the_page_labels_each_lengths_rate_and_shows_the_cpus_measured_seconds(alice_client, workload, probe, prices):
    _cpu_run(workload, probe)
    page = html(alice_client.get(reverse("planning", args=[workload.pk])))

    heads = re.findall(r'<th scope="row" class="num">([\d,]+)<br><small class="rate-basis">(\w+) rate</small>', page)
    assert heads[0] == ("32,768", "measured") and {basis for _, basis in heads[1:]} == {"extrapolated"}
    assert len(heads) == 6
    measured_table = re.search(r'<table id="measured">(.*?)</table>', page, re.S).group(1)
    assert "cpu: measured: seconds per question" in measured_table
    rows = re.findall(r'<tr><th scope="row" class="num">([\d,]+)</th>', measured_table)
    assert rows == ["4,096", "8,192", "16,384", "32,704"]
    dense = PROFILE["strategies"]["dense"]["32704"]["seconds_per_question"]
    assert f"{dense:.3f} s" in measured_table


def test_between_and_beyond_measured_lengths():
    """Interpolated in log length between points, held past the ends, labelled so."""
    # 1 then 3 seconds a TFLOP, prefill and decode alike.
    points = {str(n): {"prefill_s": s, "decode_s_per_token": s, "seconds_per_question": s, "peak_memory_bytes": 1,
                       "prefill_flops": 1e12 * n / 1000, "decode_flops_per_token": 1e12 * n / 1000}
              for n, s in ((1000, 1.0), (4000, 12.0))}
    profile = {"device": "cpu (test)", "date": "2026-12-06", "source": "a test", "model_shape": "m",
               "answer_tokens": 0, "strategies": {"dense": points, "naive_sparse:p": points, "index_share:p": points}}
    rates = length_rates(profile, "p", [1000, 2000, 4000, 8000], run_tokens=1000)
    assert rates.basis == ["measured", "interpolated", "measured", "extrapolated"]
    assert rates.question["full_dense"] == pytest.approx([1.0, 2.0, 3.0, 3.0])  # 2,000 is halfway in log length
    assert rates.question["full_dense_cached"] == pytest.approx([1.0, 2.0, 3.0, 3.0])
    assert rates.prefill["full_dense_cached"] == pytest.approx([1.0, 2.0, 3.0, 3.0])
    assert length_rates({**profile, "strategies": {"dense": points}}, "p", [1000], 1000) is None
