"""The API queues a failed run again with the same settings; any other run is refused with 409."""

from tests.workloads.pages.conftest import make_run
from workloads.models import ComparisonRun


def test_the_api_retries_only_a_failed_run(as_bob, workload):
    failed, done = make_run(workload, status="failed"), make_run(workload, status="succeeded")
    assert as_bob.post(f"/runs/{failed.pk}/retry").json()["status"] == "queued"
    refused = as_bob.post(f"/runs/{done.pk}/retry")
    assert refused.status_code == 409 and ComparisonRun.objects.get(pk=done.pk).status == "succeeded"
