"""Another organisation's workloads, runs, probes, documents, uploads and prices answer 404, and stay as they were."""

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import make_run
from workloads.models import ComparisonRun, Document, GpuPrice, Probe, Upload


@pytest.fixture
def acme_things(workload, probe, document, alice, prices):
    return {
        "run": make_run(workload, status=ComparisonRun.Status.QUEUED),
        "upload": Upload.objects.create(workload=workload, created_by=alice),
    }


def test_charlie_cannot_see_acmes_workload(charlie_client, workload, probe, document, acme_things, prices):
    run, upload = acme_things["run"], acme_things["upload"]
    for url in [
        reverse("workload_detail", args=[workload.pk]), reverse("workload_edit", args=[workload.pk]),
        reverse("planning", args=[workload.pk]), reverse("runs_csv", args=[workload.pk]),
        reverse("run_create", args=[workload.pk]), reverse("upload_create", args=[workload.pk]),
        reverse("probe_create", args=[workload.pk]), reverse("probe_edit", args=[workload.pk, probe.pk]),
        reverse("run_detail", args=[run.pk]), reverse("run_status", args=[run.pk]),
        reverse("upload_detail", args=[upload.pk]), reverse("upload_status", args=[upload.pk]),
        reverse("document_detail", args=[workload.pk, document.pk]),
        reverse("document_text", args=[workload.pk, document.pk]),
    ]:
        assert charlie_client.get(url).status_code == 404, url


def test_charlie_cannot_change_acmes_things(charlie_client, workload, probe, document, acme_things, prices):
    run = acme_things["run"]
    for url in [
        reverse("run_cancel", args=[run.pk]), reverse("run_reprice", args=[run.pk]),
        reverse("probe_delete", args=[workload.pk, probe.pk]), reverse("probes_generate", args=[workload.pk]),
        reverse("document_delete", args=[workload.pk, document.pk]),
        reverse("gpu_price_delete", args=[prices["cpu"].pk]), reverse("api_price_delete", args=[prices["api"].pk]),
    ]:
        assert charlie_client.post(url).status_code == 404, url
    response = charlie_client.post(reverse("probe_edit", args=[workload.pk, probe.pk]),
                                   {"question": "Mine?", "answer": "x"})
    assert response.status_code == 404

    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.QUEUED
    assert Probe.objects.get(pk=probe.pk).question == "What is the notice period?"
    assert Document.objects.filter(pk=document.pk).exists()
    assert GpuPrice.objects.filter(pk=prices["cpu"].pk).exists()


def test_charlie_sees_none_of_acme_on_his_own_pages(charlie_client, workload, prices):
    dashboard = charlie_client.get(reverse("dashboard")).content.decode()
    assert "Globex" in dashboard and "Supplier contracts" not in dashboard
    price_book = charlie_client.get(reverse("price_book")).content.decode()
    assert "a GPU cloud list price" not in price_book and "example-api" not in price_book
