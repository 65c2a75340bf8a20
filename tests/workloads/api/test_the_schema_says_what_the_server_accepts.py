"""The OpenAPI schema and the server agree: a client generated from the schema sends what the server takes, and the
schema does not promise what the server refuses."""

import jsonschema_rs
import pytest

from tests.workloads.conftest import MODEL
from workloads.api import api
from workloads.api.error_responses import NO_FILES
from workloads.models import GpuPrice, Probe, Upload, UploadFile, Workload


@pytest.fixture(scope="module")
def schema() -> dict:
    return api.get_openapi_schema(path_prefix="/api")


def _validator(schema: dict, component: str, field: str):
    """A validator for one field of a component, its $refs resolved against the whole schema."""
    return jsonschema_rs.validator_for({**schema["components"]["schemas"][component]["properties"][field],
                                        "components": schema["components"]})


def test_a_workloads_kind_lists_the_workload_kinds_not_the_probe_kinds(schema, as_alice):
    kind = _validator(schema, "WorkloadIn", "kind")
    for value in Workload.Kind.values:
        assert kind.is_valid(value)
    assert not kind.is_valid("multi_hop")
    assert _validator(schema, "ProbeIn", "kind").is_valid("multi_hop")
    assert set(Probe.Kind.values) != set(Workload.Kind.values)

    response = as_alice.post("/workloads", {"name": "Leases", "target_model": MODEL, "kind": "contracts"})
    assert response.status_code == 201 and response.json()["kind"] == "contracts"


@pytest.mark.parametrize("field", [("GpuPriceIn", "per_hour"), ("ApiPriceIn", "input_per_mtok"),
                                   ("ApiPriceIn", "output_per_mtok")])
def test_a_price_is_a_number_or_a_string_of_digits_and_never_empty(schema, field):
    price = _validator(schema, *field)

    for good in ("0.15", "12", "999999.9999", 0.15, 3):
        assert price.is_valid(good), good
    for bad in ("", " ", "1.23456", "-1", "abc", "1e3", -0.5):
        assert not price.is_valid(bad), bad


def test_the_server_refuses_the_prices_the_schema_refuses_and_takes_the_ones_it_takes(as_alice):
    entry = {"device_class": "A100", "effective_from": "2026-02-01", "source": "our invoice"}

    assert as_alice.post("/prices/gpu", {**entry, "per_hour": ""}).status_code == 400
    assert as_alice.post("/prices/gpu", {**entry, "per_hour": "1.2345"}).status_code == 201
    assert str(GpuPrice.objects.get().per_hour) == "1.2345"


def test_an_uploads_files_are_required_in_the_schema(schema):
    body = schema["paths"]["/api/workloads/{workload_id}/documents"]["post"]["requestBody"]
    assert body["content"]["multipart/form-data"]["schema"]["required"] == ["files"]


def test_a_file_name_that_is_not_utf8_gets_an_error_that_says_so(client, workload, alice):
    from workloads.models import ApiToken

    part = (b'--B\r\nContent-Disposition: form-data; name="files"; filename="caf\xe9.txt"\r\n'
            b"Content-Type: text/plain\r\n\r\nNotice period: 90 days.\r\n--B--\r\n")
    response = client.post(f"/api/workloads/{workload.pk}/documents", data=part,
                           content_type="multipart/form-data; boundary=B",
                           headers={"Authorization": f"Bearer {ApiToken.issue(alice)}"})

    assert (response.status_code, response.json()) == (400, {"detail": NO_FILES})
    assert "not valid UTF-8" in NO_FILES and "choose at least one file" not in NO_FILES
    assert not Upload.objects.exists() and not UploadFile.objects.exists()
