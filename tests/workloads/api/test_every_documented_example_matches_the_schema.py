"""Every example the OpenAPI schema documents (a field's or a whole body's) is valid against the schema it
illustrates, and the server accepts each request body's example as it stands."""

import copy

import jsonschema_rs
import pytest

from tests.workloads.conftest import MODEL
from workloads.api import api
from workloads.models import ApiPrice


def _examples(node, path=""):
    """(where, schema, example) for every `examples` list and `example` value anywhere in the document."""
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict) or "type" in node or "anyOf" in node or "$ref" in node:
            for example in node.get("examples", []) if isinstance(node.get("examples"), list) else []:
                yield path, node, example
            if "example" in node:
                yield path, node, node["example"]
        for key, value in node.items():
            yield from _examples(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _examples(value, f"{path}/{i}")


@pytest.fixture(scope="module")
def schema() -> dict:
    return api.get_openapi_schema(path_prefix="/api")


def test_every_example_is_valid_against_its_schema(schema):
    found = list(_examples(schema))
    assert len(found) >= 9  # the field examples and one body example per input, at least

    for where, node, example in found:
        subject = copy.deepcopy(node)
        subject.pop("examples", None)
        validator = jsonschema_rs.validator_for({**subject, "components": schema["components"]})
        errors = [error.message for error in validator.iter_errors(example)]
        assert errors == [], f"{where}: {example!r}: {errors}"


def test_the_server_takes_each_request_bodys_example(schema, as_alice, workload, acme):
    ApiPrice.objects.create(organisation=acme, provider="ExampleAI", model="small-model-v2", input_per_mtok="0.15",
                            output_per_mtok="0.60", effective_from="2025-01-01", source="test: ExampleAI")
    components = schema["components"]["schemas"]
    bodies = {"/workloads": "WorkloadIn", f"/workloads/{workload.pk}/probes": "ProbeIn", "/prices/gpu": "GpuPriceIn",
              "/prices/api": "ApiPriceIn", "/endpoints": "EndpointIn"}
    for path, component in bodies.items():
        for example in components[component]["examples"]:
            response = as_alice.post(path, example)
            assert response.status_code == 201, (path, example, response.json())
    assert components["WorkloadIn"]["examples"][0]["target_model"] == MODEL
