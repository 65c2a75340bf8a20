"""Endpoint test helpers: an API client per named actor, a form's worth of fields, and endpoints of Acme's."""

import pytest

from tests.workloads.api.conftest import Api, as_alice, as_bob, as_charlie  # noqa: F401 (fixtures)
from workloads.models import ApiToken, Endpoint

VLLM = {"name": "vLLM on the GPU box", "base_url": "http://gpu-box:8000/v1", "model": "Qwen/Qwen2.5-7B-Instruct"}


def make_endpoint(organisation, name: str = "Ollama", key: str = "", **fields) -> Endpoint:
    endpoint = Endpoint(organisation=organisation, name=name, base_url=fields.pop("base_url", "http://localhost:11434/v1"),
                        model=fields.pop("model", "llama3.1:8b"), **fields)
    endpoint.set_api_key(key)
    endpoint.save()
    return endpoint


@pytest.fixture
def ollama(acme, alice):
    """Acme's local Ollama: no key, not billed."""
    return make_endpoint(acme, created_by=alice)


@pytest.fixture
def as_vera(client, vera):
    return Api(client, ApiToken.issue(vera))
