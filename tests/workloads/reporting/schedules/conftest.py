"""Schedule tests put Acme in New York."""

import pytest


@pytest.fixture
def workload(workload):
    """The shared workload, its organisation moved to New York (which moves its beat entry)."""
    organisation = workload.organisation
    organisation.timezone = "America/New_York"
    organisation.save()
    workload.refresh_from_db()
    return workload
