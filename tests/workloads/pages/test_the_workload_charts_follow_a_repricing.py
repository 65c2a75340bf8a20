"""The workload page's charts are kept under a stamp of its succeeded runs (page_charts.RUN_STAMP), not under every
result: a re-pricing, the one change to a succeeded run's results, draws them again at once, and so do a new run and
a deleted one."""

import datetime as dt
import json
import re

from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.comparisons import pricing
from workloads.models import GpuPrice
from workloads.reporting import page_charts

DENSE = "Whole documents (dense)"


def _dense_dollars(workload) -> list[float]:
    charts, _ = page_charts.workload_charts(workload)
    cost = next(chart for chart in charts if chart.name == "cost-over-time")
    return next(trace["y"] for trace in cost.figure["data"] if trace["name"] == DENSE)


def test_a_repricing_a_new_run_and_a_deleted_run_each_draw_the_charts_again(workload, probe, prices):
    march = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    assert _dense_dollars(workload) == [0.002]  # 72 s at $0.10 an hour

    # A dearer CPU from before March, then an admin's re-pricing: the same run, the same results rows, new dollars.
    GpuPrice.objects.create(organisation=workload.organisation, device_class="cpu", per_hour="0.20",
                            effective_from=dt.date(2026, 2, 1), source="test: the price went up")
    pricing.price_run(march)
    assert _dense_dollars(workload) == [0.004]

    june = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC))
    assert _dense_dollars(workload) == [0.004, 0.004]
    june.delete()
    assert _dense_dollars(workload) == [0.004]


def test_the_page_shows_the_repriced_dollars(client, alice, workload, probe, prices):
    run = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    client.force_login(alice)
    url = reverse("workload_detail", args=[workload.pk])
    assert client.get(url).status_code == 200  # the charts drawn, and kept
    GpuPrice.objects.create(organisation=workload.organisation, device_class="cpu", per_hour="0.20",
                            effective_from=dt.date(2026, 2, 1), source="test: the price went up")
    pricing.price_run(run)

    page = client.get(url).content.decode()
    figure = re.search(r'<script id="chart-cost-over-time-data" type="application/json">(.*?)</script>', page, re.S)
    dense = next(trace for trace in json.loads(figure.group(1))["data"] if trace["name"] == DENSE)
    assert dense["y"] == [0.004]
