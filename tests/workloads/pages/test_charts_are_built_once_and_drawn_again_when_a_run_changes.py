"""A page's charts are built once for what they plot and then read from the cache; a run that changes (re-priced, a
new one finished, one deleted) is drawn again at once, never shown as it was."""

import json
import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report
from workloads import deletion
from workloads.comparisons import pricing
from workloads.reporting import page_charts


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def _figures(client, url: str) -> tuple[dict, int]:
    """The page's plotly figures by chart name, and how many figures building the page drew."""
    with mock.patch.object(page_charts, "_figure", wraps=page_charts._figure) as drawn:
        page = client.get(url).content.decode()
    found = re.findall(r'<script id="chart-([\w-]+)-data" type="application/json">(.*?)</script>', page, re.S)
    return {name: json.loads(data) for name, data in found}, drawn.call_count


def _dollars(figure: dict) -> dict:
    """Each line's values by strategy, told by its colour (one per strategy on every chart), not by its legend."""
    strategy = {colour: name for name, colour in page_charts.COLOURS.items()}
    return {strategy[trace["line"]["color"]]: trace["y"] for trace in figure["data"]}


def test_the_workload_pages_charts_are_built_once(alice_client, workload, probe, prices):
    for _ in range(3):
        make_run(workload, standard_report(probe))
    url = reverse("workload_detail", args=[workload.pk])

    first, drawn_first = _figures(alice_client, url)
    again, drawn_again = _figures(alice_client, url)

    assert drawn_first == 4 and set(first) == {"cost-over-time", "accuracy-over-time", "unit-cost-over-time",
                                               "cost-vs-quality"}
    assert drawn_again == 0
    assert again == first


def test_the_run_pages_charts_are_built_once(alice_client, workload, probe, prices):
    url = reverse("run_detail", args=[make_run(workload, standard_report(probe)).pk])

    first, drawn_first = _figures(alice_client, url)
    again, drawn_again = _figures(alice_client, url)

    assert (drawn_first, drawn_again) == (2, 0)
    assert again == first


def test_a_re_priced_run_is_drawn_at_its_new_prices(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    workload_url, run_url = reverse("workload_detail", args=[workload.pk]), reverse("run_detail", args=[run.pk])
    before, _ = _figures(alice_client, workload_url)
    run_before, _ = _figures(alice_client, run_url)

    prices["cpu"].per_hour = "0.20"  # twice the price, as a corrected price book entry
    prices["cpu"].save()
    pricing.price_run(run)
    after, _ = _figures(alice_client, workload_url)
    run_after, _ = _figures(alice_client, run_url)

    assert _dollars(before["cost-over-time"])["full_dense"] == [0.002]
    assert _dollars(after["cost-over-time"])["full_dense"] == [0.004]
    assert _dollars(after["unit-cost-over-time"])["full_dense"] == [0.001]  # $0.004 over 4 contracts
    assert run_before["cost-vs-quality"]["data"][0]["x"] != run_after["cost-vs-quality"]["data"][0]["x"]


def test_a_new_run_and_a_deleted_one_change_the_history(alice_client, workload, probe, prices):
    first = make_run(workload, standard_report(probe))
    url = reverse("workload_detail", args=[workload.pk])
    one, _ = _figures(alice_client, url)

    second = make_run(workload, standard_report(probe, index_share_seconds=72.0))
    two, _ = _figures(alice_client, url)
    deletion.delete_run(first)
    left, _ = _figures(alice_client, url)

    assert _dollars(one["cost-over-time"])["full_index_share"] == [0.001]
    assert _dollars(two["cost-over-time"])["full_index_share"] == [0.001, 0.002]
    assert _dollars(left["cost-over-time"])["full_index_share"] == [0.002]
    assert f"run {second.pk} of" in left["cost-over-time"]["data"][0]["text"][0]
