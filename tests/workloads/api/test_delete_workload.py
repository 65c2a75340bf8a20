"""DELETE /api/workloads/{id}: 204 and gone, 404 for another organisation or a second time, 409 while it works."""

from tests.workloads.pages.conftest import make_run
from workloads.models import Workload


def test_it_deletes_the_workload_and_answers_204(as_alice, workload, probe):
    response = as_alice.delete(f"/workloads/{workload.pk}")

    assert response.status_code == 204 and response.content == b""
    assert not Workload.objects.exists()
    assert as_alice.delete(f"/workloads/{workload.pk}").status_code == 404


def test_a_running_comparison_keeps_it_with_409(as_alice, workload):
    run = make_run(workload, status="running")

    response = as_alice.delete(f"/workloads/{workload.pk}")

    assert response.status_code == 409
    assert response.json()["detail"].startswith(f"run {run.pk} is running: cancel it")
    assert Workload.objects.filter(pk=workload.pk).exists()


def test_another_organisation_gets_404(as_charlie, workload):
    assert as_charlie.delete(f"/workloads/{workload.pk}").status_code == 404
    assert Workload.objects.filter(pk=workload.pk).exists()
