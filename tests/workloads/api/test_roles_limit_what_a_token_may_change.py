"""A token acts with its user's role: a viewer's reads, a member's changes to workloads, an admin's prices and
deletions. A refusal is a 403 that says which role the action needs, and changes nothing."""

import pytest

from workloads.models import ApiToken, GpuPrice, Probe, Summary, Workload

from .conftest import Api

NEW_WORKLOAD = {"name": "Tickets", "target_model": "SmolLM2-135M-Instruct"}
NEW_PRICE = {"device_class": "A100", "per_hour": "1.20", "effective_from": "2026-02-01", "source": "our invoice"}


@pytest.fixture
def as_vera(client, vera):
    return Api(client, ApiToken.issue(vera))


@pytest.mark.parametrize("method, path, body", [
    ("post", "/workloads", NEW_WORKLOAD),
    ("post", "/workloads/{workload}/probes", {"question": "Who signs?", "answer": "the CFO"}),
    ("post", "/workloads/{workload}/runs", {}),
    ("post", "/runs/{run}/cancel", None),
    ("post", "/runs/{run}/reprice", None),
    ("post", "/runs/{run}/summary/email", None),
    ("post", "/prices/gpu", NEW_PRICE),
    ("delete", "/workloads/{workload}", None),
])
def test_a_viewers_token_changes_nothing(as_vera, succeeded_run, method, path, body):
    url = path.format(workload=succeeded_run.workload_id, run=succeeded_run.pk)
    counts = Workload.objects.count(), Probe.objects.count(), GpuPrice.objects.count()
    response = getattr(as_vera, method)(url, body) if method == "post" else as_vera.delete(url)
    assert response.status_code == 403
    assert response.json()["detail"].startswith("you are a viewer in Acme, and only ")
    assert (Workload.objects.count(), Probe.objects.count(), GpuPrice.objects.count()) == counts


def test_a_viewers_token_reads_and_exports_a_pdf(as_vera, succeeded_run, document):
    assert as_vera.get(f"/runs/{succeeded_run.pk}").status_code == 200
    text = as_vera.get(f"/workloads/{document.workload_id}/documents/{document.pk}/text")
    assert (text.status_code, text["Content-Type"], text.content.decode()) == (200, "text/plain; charset=utf-8",
                                                                              document.text)
    assert as_vera.get("/prices/gpu").status_code == 200
    assert as_vera.post(f"/runs/{succeeded_run.pk}/summary").status_code == 202
    assert Summary.objects.filter(run=succeeded_run).count() == 1


def test_a_members_token_changes_workloads_but_not_prices(as_bob, workload):
    assert as_bob.post("/workloads", NEW_WORKLOAD).status_code == 201
    refused = as_bob.post("/prices/gpu", NEW_PRICE)
    assert refused.status_code == 403
    assert "only admins may do this (an admin also sets prices" in refused.json()["detail"]
    assert as_bob.delete(f"/workloads/{workload.pk}").status_code == 403
    assert Workload.objects.filter(pk=workload.pk).exists() and not GpuPrice.objects.exists()


def test_an_admins_token_sets_prices_and_deletes_workloads(as_alice, workload):
    assert as_alice.post("/prices/gpu", NEW_PRICE).status_code == 201
    assert as_alice.delete(f"/workloads/{workload.pk}").status_code == 204
