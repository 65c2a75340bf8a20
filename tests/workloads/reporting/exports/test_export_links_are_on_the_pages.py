"""The workload page links its history as CSV and JSON; the run page links the run as CSV and JSON."""

from django.urls import reverse

from tests.workloads.pages.conftest import html


def test_the_workload_page_links_its_history(alice_client, workload, finished_run):
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert f'<a href="{reverse("runs_csv", args=[workload.pk])}" download>Download runs as CSV</a>' in page
    assert f'<a href="{reverse("workload_history_json", args=[workload.pk])}" download>' in page


def test_the_run_page_links_the_run(alice_client, finished_run):
    page = html(alice_client.get(reverse("run_detail", args=[finished_run.pk])))

    assert f'<a href="{reverse("run_export_csv", args=[finished_run.pk])}" download>' in page
    assert f'<a href="{reverse("run_export_json", args=[finished_run.pk])}" download>' in page
