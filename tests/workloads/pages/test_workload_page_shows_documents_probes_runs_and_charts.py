"""The workload page: documents with token totals, probes, runs, and its charts over time."""

import datetime as dt

from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.models import Document


def test_workload_page_shows_documents_probes_runs_and_charts(alice_client, workload, probe, document, prices):
    Document.objects.create(workload=workload, name="annex.txt", text="Annex", tokens=766, lines=10, size_bytes=2048)
    make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    latest = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC))
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert "<h1>Supplier contracts</h1>" in page and "about 40 contracts a month" in page
    assert "master-services-agreement.txt" in page and "annex.txt" in page
    assert '<th scope="row">2 documents</th> <td class="num">2,000</td>' in page
    assert "What is the notice period?" in page and "90 days" in page
    assert f'<a href="{reverse("run_detail", args=[latest.pk])}">run {latest.pk}</a>' in page
    for name in ("cost-over-time", "accuracy-over-time", "unit-cost-over-time", "cost-vs-quality"):
        assert f'id="chart-{name}" class="plot" data-chart="{name}"' in page
    assert "Device cost per contract" in page
    assert f"From the latest finished comparison, run {latest.pk} of 1 Jun 2026." in page
    assert "Whole documents (sliding window) was refused in run" in page
    assert f'href="{reverse("planning", args=[workload.pk])}"' in page


def test_an_empty_history_gives_sentences_not_charts(alice_client, workload):
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))
    assert "data-chart=" not in page
    assert page.count("No comparison has finished yet, so there is no history to chart.") == 3
    assert "There is no finished comparison to plot yet." in page
    assert "No documents yet" in page and "No probes yet" in page and "No comparisons yet." in page


def test_a_document_is_deleted_with_a_post(alice_client, workload, document):
    url = reverse("document_delete", args=[workload.pk, document.pk])
    assert alice_client.get(url).status_code == 405
    response = alice_client.post(url, follow=True)
    assert "Deleted the document master-services-agreement.txt." in html(response)
    assert not Document.objects.exists()
