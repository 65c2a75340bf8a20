"""A finished run's page: the strategy table, the FLOP chart, each probe's answers, the prices and what produced it."""

import json
import re

from django.urls import reverse
from django.utils.html import escape

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.reporting.recommendation import monthly, recommendation


def _figure(page: str, name: str) -> dict:
    match = re.search(rf'<script id="chart-{name}-data" type="application/json">(.*?)</script>', page, re.S)
    assert match, f"no data for chart {name}"
    return json.loads(match.group(1))


def test_run_page_shows_strategy_table_flop_chart_and_probe_answers(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe), device="cpu",
                   documents=[{"name": "msa.txt", "tokens": 1234, "sha256": "ab" * 32}])
    page = html(alice_client.get(reverse("run_detail", args=[run.pk])))
    assert "4 contracts of work · read 1 document, 1,234 tokens" in page

    # The recommendation first, its reasons, and what it means for a month of the 40 contracts the workload expects.
    chosen = recommendation(run)
    assert f'<p class="sentence">{escape(chosen.sentence)}</p>' in page
    assert all(f"<li>{escape(reason)}</li>" in page for reason in chosen.reasons)
    assert monthly(run).startswith("At about 40 contracts a month, on your device: whole documents (Index Share) $0.01 "
                                   "and ask every chunk $0.005 a month")
    assert escape(monthly(run)) in page
    assert "4 contracts of work" in page

    # The strategy table: index share ran 36 s on a $0.10/h CPU, 4 contracts of work.
    assert "$0.001" in page  # 36 s at $0.10 an hour
    assert "$0.00025" in page  # per contract
    assert "650 GFLOP" in page  # 4e11 linear + 2e11 attention + 5e10 indexer
    assert "97%" in page and "81%" in page  # top-1 agreement and index overlap
    assert "Refused: longer than the model&#x27;s 8192 positions" in page
    assert "quality-gated" in page
    # Memory above what each call began with, not the process's whole footprint: say so where it is shown.
    assert '<th scope="col" class="num">Peak memory added</th>' in page and "300.0 MB" in page
    assert "<dt>Peak memory added</dt><dd>The most one call added to what was in use when it began" in page

    # The FLOP breakdown as a chart, stacked by component, refused strategies left out with their reason.
    assert 'data-chart="flop-breakdown"' in page and 'id="chart-flop-breakdown"' in page
    figure = _figure(page, "flop-breakdown")
    assert figure["layout"]["barmode"] == "stack"
    traces = {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in figure["data"]}
    assert list(traces) == ["attention", "indexer", "linear"]
    assert traces["indexer"] == {"Whole documents (Index Share)": 5e10, "Whole documents (dense)": 0.0,
                                   "Ask every chunk": 0.0}
    assert "Whole documents (sliding window) was refused" in page
    assert 'data-chart="cost-vs-quality"' in page
    assert "plotly/plotly.min.js" in page and "js/charts.js" in page

    # Per-probe answers, right and wrong.
    assert "What is the notice period?" in page
    right = '<span class="mark">✓ <span class="visually-hidden">right:</span></span>'
    assert f'class="correct"> {right} 90 days</td>' in page
    assert 'class="wrong"> <span class="mark">✗ <span class="visually-hidden">wrong:</span></span> NONE</td>' in page

    # The prices used, and what produced the run.
    assert "cpu: $0.10 an hour, in force from 1 Jan 2026; source: test: a 2-core cloud VM" in page
    assert ("example-api SmolLM2-135M-Instruct: $0.10 in and $0.30 out per million tokens, in force from 1 Jan 2026; "
            "source: test: an API price page") in page
    assert "<dt>torch</dt><dd>2.13.0</dd>" in page and "<dt>Device</dt><dd>cpu</dd>" in page
    assert "Re-price with the price book" in page and "Cancel the comparison" not in page


def test_a_queued_run_shows_a_progress_bar_and_no_results(alice_client, workload):
    run = make_run(workload, status="running", progress_done=3, progress_total=12, progress_message="chunked: part 2")
    page = html(alice_client.get(reverse("run_detail", args=[run.pk])))
    assert f'data-status-url="{reverse("run_status", args=[run.pk])}"' in page
    assert '<progress id="progress-bar" max="12" value="3">' in page and "chunked: part 2" in page
    assert "js/status.js" in page and "Cancel the comparison" in page
    assert "Re-price" not in page and "data-chart" not in page and "The recommendation" not in page


def test_a_failed_run_shows_its_error(alice_client, workload):
    run = make_run(workload, status="failed", error="chunked: with 40 chunks, a call may need 9000 positions")
    page = html(alice_client.get(reverse("run_detail", args=[run.pk])))
    assert "chunked: with 40 chunks, a call may need 9000 positions" in page
    assert "<progress" not in page and "Re-price" not in page
