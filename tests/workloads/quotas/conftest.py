"""Quota test helpers: API clients for Alice and Bob, and a workload ready to compare."""

import html

import pytest

from engine.core.run_settings import DEFAULTS
from tests.workloads.api.conftest import Api
from workloads.models import ApiToken, Document

# The run form as the page sends it: the strategies ticked and every setting at its default.
RUN_FORM = {"strategies": ["full_dense"], **{name: str(value) for name, value in DEFAULTS.items()}}


def page_text(response) -> str:
    """The page's HTML with its entities read back and runs of whitespace collapsed."""
    return " ".join(html.unescape(response.content.decode()).split())


@pytest.fixture
def as_bob(client, bob):
    return Api(client, ApiToken.issue(bob))


@pytest.fixture
def ready(workload, probe, prices):
    """The workload, priced, with a document and a probe: a run may start."""
    Document.objects.create(workload=workload, name="contract-a.txt", text="Notice period: 90 days.\n", tokens=120,
                            lines=1, size_bytes=24)
    return workload
