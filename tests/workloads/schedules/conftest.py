"""Schedule tests reuse the page tests' document and Charlie's client, and put Acme in New York."""

import pytest

from tests.workloads.pages.conftest import charlie_client, document  # noqa: F401  (fixtures, by import)


@pytest.fixture
def workload(workload):
    """The shared workload, its organisation moved to New York (which moves its beat entry)."""
    organisation = workload.organisation
    organisation.timezone = "America/New_York"
    organisation.save()
    workload.refresh_from_db()
    return workload
