"""The run page shows the newest summary's state, link and export button; the workload page links the latest PDF."""

import datetime as dt

from django.urls import reverse

from tests.workloads.pages.conftest import html
from tests.workloads.reporting.summary.conftest import Q1, done_summary, make_run
from workloads.models import ComparisonRun, Summary


def _run_page(client, run) -> str:
    response = client.get(reverse("run_detail", args=[run.pk]))
    assert response.status_code == 200
    return html(response)


def test_a_run_without_a_summary_offers_the_export_button(alice_client, this_quarter):
    page = _run_page(alice_client, this_quarter)

    assert f'action="{reverse("summary_create", args=[this_quarter.pk])}"' in page
    assert "Export PDF summary</button>" in page and "Export again" not in page
    assert "No PDF summary yet" in page
    assert "data-summary-link hidden" in page and "data-summary-status-url" not in page


def test_a_queued_summary_is_followed_by_the_script(alice_client, alice, this_quarter):
    Summary.objects.create(run=this_quarter, requested_by=alice)

    page = _run_page(alice_client, this_quarter)

    assert f'data-summary-status-url="{reverse("summary_status", args=[this_quarter.pk])}"' in page
    assert "/static/js/summary.js" in page
    assert "A PDF summary is queued (asked for by alice)." in page
    assert "data-summary-link hidden" in page and "Export again</button>" in page


def test_a_done_summary_shows_the_download_link(alice_client, this_quarter):
    done_summary(this_quarter, pages=5)

    page = _run_page(alice_client, this_quarter)

    link = f'<a href="{reverse("summary_download", args=[this_quarter.pk])}" download>Download the PDF summary</a>'
    assert link in page and "data-summary-link hidden" not in page
    assert ", 5 pages." in page and "Export again</button>" in page
    assert "data-summary-status-url" not in page


def test_a_failed_export_shows_why(alice_client, this_quarter):
    Summary.objects.create(run=this_quarter, status=Summary.Status.FAILED, error="internal error: <disk> full")

    assert "The last export failed: internal error: &lt;disk&gt; full" in _run_page(alice_client, this_quarter)


def test_an_unfinished_run_offers_no_export(alice_client, workload):
    run = make_run(workload, status=ComparisonRun.Status.RUNNING)

    page = _run_page(alice_client, run)
    assert reverse("summary_create", args=[run.pk]) not in page and "PDF summary" not in page


def test_the_workload_page_links_the_latest_succeeded_runs_pdf_or_its_export(alice_client, workload, this_quarter):
    url = reverse("workload_detail", args=[workload.pk])
    # Newer, but not succeeded: not the one to summarise.
    make_run(workload, status=ComparisonRun.Status.FAILED, created_at=Q1 + dt.timedelta(days=1))

    page = html(alice_client.get(url))
    assert f'action="{reverse("summary_create", args=[this_quarter.pk])}"' in page
    assert f"run {this_quarter.pk}</a> (2027-Q1)" in page

    done_summary(this_quarter)
    page = html(alice_client.get(url))
    link = f'<a href="{reverse("summary_download", args=[this_quarter.pk])}" download>Download the PDF summary</a>'
    assert link in page
