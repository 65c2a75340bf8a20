"""Cancelling a sweep: a queued one is never claimed; a running one stops at its next progress report, the one UPDATE
that records progress and notices that the sweep is no longer its worker's (cancelled, or taken over)."""

import pytest

from workloads.comparisons.sweep_starting import cancel_sweep
from workloads.models import GroupSweep
from workloads.tasks import run_group_sweep
from workloads.workers import leases


def _sweep(workload, status):
    return GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[1, 4],
                                     status=status, claimed_by=leases.holder())


def test_a_cancelled_queued_sweep_is_never_claimed(workload):
    sweep = _sweep(workload, "queued")
    assert cancel_sweep(sweep)

    run_group_sweep(sweep.pk)

    sweep.refresh_from_db()
    assert sweep.status == "cancelled" and sweep.started_at is None and sweep.finished_at is not None


def test_a_running_sweep_stops_at_its_next_progress_report(workload):
    sweep = _sweep(workload, "running")
    leases.report(GroupSweep, sweep.pk, leases.holder(), progress_done=3, progress_total=10)
    assert cancel_sweep(sweep)

    with pytest.raises(leases.Stopped):
        leases.report(GroupSweep, sweep.pk, leases.holder(), progress_done=4, progress_total=10)

    sweep.refresh_from_db()
    assert (sweep.status, sweep.progress_done, sweep.report) == ("cancelled", 3, None)
    assert not GroupSweep.beat(sweep.pk, leases.holder())  # its heartbeat stops with it: the lease has ended


def test_a_sweep_another_worker_took_over_stops_too(workload):
    sweep = _sweep(workload, "running")
    GroupSweep.objects.filter(pk=sweep.pk).update(claimed_by="another-host:1")  # it thought this one dead

    with pytest.raises(leases.Stopped):
        leases.report(GroupSweep, sweep.pk, leases.holder(), progress_done=1, progress_total=10)
    assert GroupSweep.objects.get(pk=sweep.pk).progress_done == 0


def test_a_finished_sweep_cannot_be_cancelled(workload):
    sweep = _sweep(workload, "succeeded")
    assert not cancel_sweep(sweep)
    assert GroupSweep.objects.get(pk=sweep.pk).status == "succeeded"
