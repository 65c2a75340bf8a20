"""Oversized or malformed requests are refused with a JSON 400, never a 500 or an HTML page."""

import pytest
from django.test import override_settings

from workloads.models import Workload


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_json_body_over_djangos_limit_is_a_400(as_alice):
    response = as_alice.post("/workloads", {"name": "x" * 2000, "target_model": "m", "api_provider": "p"})

    assert response.status_code == 400
    assert "exceeded" in response.json()["detail"].lower()
    assert not Workload.objects.exists()


def test_a_deeply_nested_body_is_a_400(as_alice):
    response = as_alice.post("/workloads", raw="[" * 100_000 + "]" * 100_000)

    assert response.status_code == 400


@pytest.mark.parametrize("content_type", ["multipart/form-data", "multipart/form-data; boundary="])
def test_a_multipart_upload_without_a_usable_boundary_is_a_400(as_alice, workload, content_type):
    response = as_alice.client.post(f"/api/workloads/{workload.pk}/documents", b"--x\r\n", content_type=content_type,
                                    headers=as_alice.headers)

    assert response.status_code == 400
    assert response.json()["detail"].startswith("malformed multipart body: ")
    assert not workload.uploads.exists()
