"""The planning page answers when full context becomes affordable, with a chart and how it was computed."""

import datetime as dt
import json
import re

from django.urls import reverse
from django.utils.html import escape

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.comparisons.planning import project
from workloads.models import ApiPrice, GpuPrice
from workloads.reporting import chart_notes


def _figure(page: str) -> dict:
    match = re.search(r'<script id="chart-planning-data" type="application/json">(.*?)</script>', page)
    return json.loads(match.group(1))


def test_planning_page_answers_the_question(alice_client, workload, probe, prices):
    make_run(workload, standard_report(probe))
    projection = project(workload)
    page = html(alice_client.get(reverse("planning", args=[workload.pk])))

    assert "When does full context become affordable?" in page
    assert f'<p class="answer" id="planning-answer">{escape(projection.answer)}</p>' in page
    # Each view is labelled, and the device view prices each strategy at its own measured rate.
    assert projection.answer.startswith("Device view, in device dollars at each strategy's measured rate: ")
    assert " API view (example-api SmolLM2-135M-Instruct): " in projection.answer
    assert 'data-chart="planning"' in page
    figure = _figure(page)
    names = [t["name"] for t in figure["data"]]
    assert "Whole documents (Index Share), device" in names and "Ask every chunk, API" in names
    assert figure["data"][0]["x"] == projection.lengths
    assert "32,768" in page and "1,048,576" in page
    for note in projection.notes:
        assert note.replace("'", "&#x27;") in page


def test_planning_without_a_run_charts_flops_and_says_why(alice_client, workload):
    page = html(alice_client.get(reverse("planning", args=[workload.pk])))
    assert "Device dollars need a measured run" in page
    assert "No API dollars: no API price for SmolLM2-135M-Instruct from example-api" in page
    figure = _figure(page)
    assert [t["name"] for t in figure["data"]] == ["Whole documents (dense)", "Whole documents (naive sparse)",
                                                   "Whole documents (Index Share)",
                                                   "Whole documents, cached (dense)",
                                                   "Whole documents, cached (Index Share)", "Ask every chunk",
                                                   "Search the chunks"]
    # Routed waits for a run to measure how often its questions escalate.
    assert "Search, then whole documents if needed is projected once a run has measured how often" in page
    assert escape(chart_notes.FLOPS_INSTEAD) in page


def test_a_free_gpu_is_compared_in_flops_not_divided_by_zero(alice_client, workload, probe, prices):
    # Owned hardware is priced at $0/h on purpose (the form allows 0): every length costs $0 either way.
    make_run(workload, standard_report(probe))
    GpuPrice.objects.create(organisation=workload.organisation, device_class="cpu", per_hour="0",
                            effective_from=dt.date(2026, 6, 1), source="our own server")

    response = alice_client.get(reverse("planning", args=[workload.pk]))

    assert response.status_code == 200
    page = html(response)
    assert ("No device dollars: cpu is priced at $0/h (from 2026-06-01, source: our own server), so device time is "
            "compared in ledger FLOPs.") in page
    assert "in ledger FLOPs" in project(workload).answer
    assert not [t["name"] for t in _figure(page)["data"] if "(device)" in t["name"]]  # no line of $0 device cost


def test_a_free_api_is_drawn_on_a_linear_axis_that_shows_zero(alice_client, workload, probe, prices):
    # An API priced at $0 costs $0 at every length, which a logarithmic axis cannot draw: its lines would vanish.
    make_run(workload, standard_report(probe))
    ApiPrice.objects.create(organisation=workload.organisation, provider="example-api", model=MODEL,
                            input_per_mtok="0", output_per_mtok="0", effective_from=dt.date(2026, 6, 1),
                            source="our own endpoint")

    page = html(alice_client.get(reverse("planning", args=[workload.pk])))

    figure = _figure(page)
    assert figure["layout"]["yaxis"]["type"] == "linear"
    assert all(y == 0 for t in figure["data"] if "(API)" in t["name"] for y in t["y"])
    assert "Some costs are $0 (a price of $0), which a logarithmic axis cannot draw: the dollar axis is linear." in page


def test_dollars_are_drawn_on_a_logarithmic_axis_when_none_is_zero(alice_client, workload, probe, prices):
    make_run(workload, standard_report(probe))

    assert _figure(html(alice_client.get(reverse("planning", args=[workload.pk]))))["layout"]["yaxis"]["type"] == "log"


def test_it_says_when_the_workloads_documents_are_shorter_than_the_projection(workload, probe, prices):
    the_report = standard_report(probe)
    the_report["documents"] = [{"name": "a.txt", "tokens": 1_500}, {"name": "b.txt", "tokens": 600}]
    run = make_run(workload, the_report)

    assert (f"The workload's documents hold 2,100 tokens, fewer than the 32K this projection starts at: at their own "
            f"length, run {run.pk}'s measured costs answer the question.") in project(workload).notes

    the_report["documents"] = [{"name": "long.txt", "tokens": 40_000}]
    make_run(workload, the_report)
    assert not [note for note in project(workload).notes if "fewer than the 32K" in note]
