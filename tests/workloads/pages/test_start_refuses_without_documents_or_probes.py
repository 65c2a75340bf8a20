"""A comparison needs documents, probes and an API price; the service's reason shows on the form."""

from django.urls import reverse

from tests.workloads.pages.test_it_starts_a_run_with_chosen_strategies import SETTINGS
from workloads.models import ApiPrice, ComparisonRun


def _start(client, workload):
    return client.post(reverse("run_create", args=[workload.pk]), {"strategies": ["chunked"], **SETTINGS})


def test_start_refuses_without_documents_or_probes(alice_client, workload, prices):
    response = _start(alice_client, workload)
    assert response.status_code == 400
    assert "the workload has no documents yet: upload some first" in response.content.decode()

    workload.documents.create(name="a.txt", text="text", tokens=1, lines=1, size_bytes=4)
    response = _start(alice_client, workload)
    assert response.status_code == 400
    assert "the workload has no probes yet: add or generate questions first" in response.content.decode()
    assert not ComparisonRun.objects.exists()


def test_start_refuses_without_an_api_price(alice_client, workload, document, probe, prices):
    ApiPrice.objects.all().delete()
    response = _start(alice_client, workload)
    assert response.status_code == 400
    assert "no API price for SmolLM2-135M-Instruct from example-api" in response.content.decode()
    assert not ComparisonRun.objects.exists()
