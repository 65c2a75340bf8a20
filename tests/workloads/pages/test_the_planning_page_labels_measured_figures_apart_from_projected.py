"""A price-book device class with a device profile: planning shows its measured figures, labelled
"H200: measured", at the measured lengths only, beside the ledger's projection, which stays labelled projected.

The profile is a test fixture with invented figures (its device says so); no H200 was measured for it.
"""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.comparisons.planning import project

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "device_profiles"
PROFILE = json.loads((FIXTURES / "h200.json").read_text())


@pytest.fixture
def profiles(settings):
    settings.DEVICE_PROFILE_DIR = FIXTURES


def test_the_page_shows_the_measured_h200_figures_labelled_beside_the_projection(alice_client, workload, probe,
                                                                                 prices, profiles):
    run = make_run(workload, standard_report(probe))
    projection = project(workload)
    page = html(alice_client.get(reverse("planning", args=[workload.pk])))
    indexer = run.attention_config().indexer

    assert "Projected from the ledger: device cost per question" in page
    measured_table = re.search(r'<table id="measured">(.*?)</table>', page, re.S).group(1)
    assert "H200: measured: seconds per question" in measured_table
    # The run's indexer's figures, not the other indexer's, and only where measured.
    shown = {"full_dense": "dense", "full_naive_sparse": f"naive_sparse:{indexer}",
             "full_index_share": f"index_share:{indexer}"}
    for strategy, key in shown.items():
        points = PROFILE["strategies"].get(key, {})
        assert projection.measured.seconds[strategy] == [
            points[str(n)]["seconds_per_question"] if str(n) in points else None for n in projection.measured.lengths]
    rows = re.findall(r'<tr><th scope="row" class="num">([\d,]+)</th>', measured_table)
    measured_lengths = sorted({int(n) for key in shown.values() for n in PROFILE["strategies"].get(key, {})})
    assert projection.measured.lengths == measured_lengths
    assert rows == [f"{n:,}" for n in measured_lengths] and len(rows) < len(projection.lengths)
    assert f"{PROFILE['strategies']['dense']['32768']['seconds_per_question']:.3f} s" in measured_table
    # Dollars at the price book's H200 rate ($3.50/h).
    dense_dollars = projection.measured.dollars["full_dense"][0]
    assert dense_dollars == pytest.approx(PROFILE["strategies"]["dense"]["32768"]["seconds_per_question"] / 3600 * 3.5)
    note = next(n for n in projection.notes if n.startswith("H200: measured on"))
    assert "test fixture" in note and "every other figure is projected from the ledger" in note
    figure = json.loads(re.search(r'<script id="chart-planning-data" type="application/json">(.*?)</script>',
                                  page).group(1))
    names = [t["name"] for t in figure["data"]]
    assert "Whole documents (Index Share), device" in names
    assert "Whole documents (Index Share), H200: measured" in names


def test_without_a_profile_nothing_is_labelled_measured(alice_client, workload, probe, prices, settings, tmp_path):
    settings.DEVICE_PROFILE_DIR = tmp_path
    make_run(workload, standard_report(probe))
    page = html(alice_client.get(reverse("planning", args=[workload.pk])))
    assert project(workload).measured is None
    assert 'id="measured"' not in page and "H200: measured" not in page
