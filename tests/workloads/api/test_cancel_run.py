"""Cancelling: a queued or running run becomes cancelled; a finished one is a 409 and stays as it was."""

import pytest

from workloads.models import ComparisonRun


@pytest.mark.parametrize("status", ["queued", "running"])
def test_it_cancels_a_run_that_has_not_finished(as_bob, queued_run, status):
    ComparisonRun.objects.filter(pk=queued_run.pk).update(status=status)

    response = as_bob.post(f"/runs/{queued_run.pk}/cancel")

    assert response.status_code == 200
    assert response.json()["status"] == "cancelled" and response.json()["finished_at"]
    queued_run.refresh_from_db()
    assert queued_run.status == "cancelled" and queued_run.finished_at is not None


@pytest.mark.parametrize("status", ["succeeded", "failed", "cancelled"])
def test_it_answers_409_for_a_finished_run(as_alice, queued_run, status):
    ComparisonRun.objects.filter(pk=queued_run.pk).update(status=status)

    response = as_alice.post(f"/runs/{queued_run.pk}/cancel")

    assert (response.status_code, response.json()) == (
        409, {"detail": f"run {queued_run.pk} has already finished: it is {status}"})
    assert ComparisonRun.objects.get(pk=queued_run.pk).status == status


def test_a_cancel_ignores_any_body(as_alice, queued_run):
    assert as_alice.post(f"/runs/{queued_run.pk}/cancel", {"status": "succeeded"}).status_code == 200
    assert ComparisonRun.objects.get(pk=queued_run.pk).status == "cancelled"
