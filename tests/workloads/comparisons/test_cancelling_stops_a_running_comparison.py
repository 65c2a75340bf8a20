"""Cancelling a run: a queued one is never claimed; a running one stops at its next progress report."""

import pytest

from workloads.comparisons.starting import cancel_run
from workloads.models import ComparisonRun
from workloads.tasks import _progress, run_comparison
from workloads.workers import leases


def _run(workload, status):
    return ComparisonRun.objects.create(workload=workload, strategies=["chunked"], model=workload.target_model,
                                        units_of_work=1, status=status, claimed_by=leases.holder())


def test_a_cancelled_queued_run_is_never_claimed(workload):
    run = _run(workload, "queued")
    assert cancel_run(run)
    run_comparison(run.pk)
    run.refresh_from_db()
    assert run.status == "cancelled" and run.started_at is None and run.finished_at is not None


def test_a_running_run_stops_at_its_next_progress_report(workload):
    run = _run(workload, "running")
    report = _progress(run.pk, leases.holder())
    report(3, 10, "chunked: chunk 3 of 10")
    run.refresh_from_db()
    assert (run.progress_done, run.progress_total, run.progress_message) == (3, 10, "chunked: chunk 3 of 10")
    assert cancel_run(run)
    with pytest.raises(leases.Stopped):
        report(4, 10, "chunked: chunk 4 of 10")
    run.refresh_from_db()
    assert run.status == "cancelled" and run.progress_done == 3


def test_a_run_another_worker_took_over_stops_at_its_next_progress_report(workload):
    run = _run(workload, "running")
    report = _progress(run.pk, leases.holder())
    ComparisonRun.objects.filter(pk=run.pk).update(claimed_by="another-host:1")  # it thought this one dead
    with pytest.raises(leases.Stopped):
        report(1, 10, "chunked: chunk 1 of 10")
    assert ComparisonRun.objects.get(pk=run.pk).progress_done == 0


def test_a_finished_run_cannot_be_cancelled(workload):
    run = _run(workload, "succeeded")
    assert not cancel_run(run)
    run.refresh_from_db()
    assert run.status == "succeeded"
