"""A run of more than RUN_SHARD_QUESTIONS questions is split into shards when it is queued; the worker that starts it
hands it to them, the last shard to end hands it back exactly once for its merge, however many end together; a failed
shard fails the run and a retry asks only the shards not done; a cancel reaches every shard; and the sweeps of lost
jobs leave a run alone while its shards are alive, recovering the shards instead (issue 41). The shards asked on real
workers: tests/workloads/recovery/test_a_comparison_split_into_shards_*."""

import datetime as dt

import pytest
from django.utils import timezone

from workloads.comparisons import shards
from workloads.comparisons.starting import cancel_run, retry_run, start_run
from workloads.models import ComparisonRun, Probe, RunShard
from workloads.models.comparison_runs import SHARDS_HOLDER
from workloads.tasks import LOST_JOB_GRACE_S, fail_lost_jobs
from workloads.workers import leases
from workloads.workers.recovery import recover

ME = "worker-host:101"


@pytest.fixture
def five_questions(ready_workload):
    for i in range(3):
        Probe.objects.create(workload=ready_workload, question=f"What is clause {i}?", answer=f"{i} days")
    return ready_workload


def _start(workload, user, size, settings_fixture):
    settings_fixture.RUN_SHARD_QUESTIONS = size
    return start_run(workload, user, ["chunked", "retrieval"], confirm_refusals=True, confirm_duration=True)


def _held_by(run, holder=ME):
    """The run as a worker's claim leaves it."""
    ComparisonRun.objects.filter(pk=run.pk).update(status="running", claimed_by=holder, started_at=timezone.now(),
                                                   heartbeat_at=timezone.now())


def _sent(callbacks) -> list:
    """What the captured on-commit callbacks send: ("run", pk) for a run's task, ("shards", n) for a group."""
    out = []
    for callback in callbacks:
        if getattr(callback, "args", None):  # functools.partial(send_task, name, args)
            out.append(("run", callback.args[1][0]) if callback.args[0] == "workloads.run_comparison"
                       else (callback.args[0], callback.args[1][0]))
        else:
            out.append("group")
    return out


def test_a_run_of_many_questions_is_split_when_queued_and_one_of_few_stays_one_job(five_questions, alice, settings):
    sharded = _start(five_questions, alice, 2, settings)
    assert list(sharded.shards.values_list("index", "questions", "status")) == [
        (0, [0, 1], "queued"), (1, [2, 3], "queued"), (2, [4], "queued")]

    whole = _start(five_questions, alice, 5, settings)
    assert not whole.shards.exists()
    with pytest.raises(ValueError, match="at least 1"):
        shards.split(5, 0)


def test_the_last_shard_to_end_queues_one_merge_however_many_end_together(five_questions, alice, settings,
                                                                           django_capture_on_commit_callbacks):
    run = _start(five_questions, alice, 2, settings)
    _held_by(run)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert shards.hand_to_shards(run, ME) is None
    assert _sent(sent) == ["group"]
    run.refresh_from_db()
    assert (run.status, run.claimed_by) == ("running", SHARDS_HOLDER)

    first, second, third = run.shards.all()
    RunShard.objects.filter(pk=first.pk).update(status="done")
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert not shards.shard_ended(run.pk)  # two still to end
    # The other two end at once: each asks, under the run's lock; only one hands the run back.
    RunShard.objects.filter(pk__in=[second.pk, third.pk]).update(status="done")
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert [shards.shard_ended(run.pk), shards.shard_ended(run.pk)] == [True, False]
    assert _sent(sent) == [("run", run.pk)]
    run.refresh_from_db()
    assert (run.status, run.claimed_by) == ("queued", "")

    # The worker that claims it finds every shard done: it merges, sending nothing.
    _held_by(run, "worker-host:202")
    with django_capture_on_commit_callbacks(execute=False) as sent:
        ended = shards.hand_to_shards(run, "worker-host:202")
    assert [s.index for s in ended] == [0, 1, 2] and sent == []
    shards.check_done(ended)


def test_a_failed_shard_fails_the_run_and_a_retry_asks_only_the_shards_not_done(five_questions, alice, settings,
                                                                                django_capture_on_commit_callbacks):
    run = _start(five_questions, alice, 2, settings)
    _held_by(run)
    shards.hand_to_shards(run, ME)
    first, second, third = run.shards.all()
    RunShard.objects.filter(pk__in=[first.pk, third.pk]).update(status="done")
    RunShard.objects.filter(pk=second.pk).update(status="failed", error="the device's price is missing")
    assert shards.shard_ended(run.pk)
    _held_by(run)
    with pytest.raises(shards.ShardFailed, match=r"shard 2 of 3 \(questions 3-4\) failed: the device's price"):
        shards.check_done(shards.hand_to_shards(run, ME))
    ComparisonRun.fail(run.pk, "shard 2 of 3 failed")

    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert retry_run(run)
    assert _sent(sent) == [("run", run.pk)]
    assert list(run.shards.values_list("status", flat=True)) == ["done", "queued", "done"]
    _held_by(run)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert shards.hand_to_shards(run, ME) is None
    assert _sent(sent) == ["group"]


def test_a_cancel_reaches_every_shard_and_a_running_one_stops_at_its_next_report(five_questions, alice, settings):
    run = _start(five_questions, alice, 2, settings)
    _held_by(run)
    shards.hand_to_shards(run, ME)
    first, second, third = run.shards.all()
    RunShard.objects.filter(pk=first.pk).update(status="done")
    RunShard.objects.filter(pk=second.pk).update(status="running", claimed_by=ME, heartbeat_at=timezone.now())
    report = shards.progress(second, ME)
    report(3, 10, "chunked")
    run.refresh_from_db()
    assert (run.progress_done, run.progress_total) == (3, 10)
    assert run.progress_message == "1 of 3 shards done; shard 2: chunked"

    assert cancel_run(run)

    assert list(run.shards.values_list("status", flat=True)) == ["done", "cancelled", "cancelled"]
    with pytest.raises(leases.Stopped):
        report(4, 10, "chunked")
    assert not shards.shard_ended(run.pk)  # a cancelled run is merged by nobody


def test_the_sweeps_leave_a_run_to_its_live_shards_and_recover_the_shards(five_questions, alice, settings,
                                                                          django_capture_on_commit_callbacks):
    run = _start(five_questions, alice, 2, settings)
    _held_by(run)
    shards.hand_to_shards(run, ME)
    long_ago = timezone.now() - dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + LOST_JOB_GRACE_S + 60)
    ComparisonRun.objects.filter(pk=run.pk).update(started_at=long_ago, heartbeat_at=long_ago)
    first, second, third = run.shards.all()
    RunShard.objects.filter(pk=first.pk).update(status="done")
    RunShard.objects.filter(pk=second.pk).update(status="running", claimed_by="gone-host:7", started_at=timezone.now(),
                                                 heartbeat_at=long_ago)
    RunShard.objects.filter(pk=third.pk).update(status="running", claimed_by="alive-host:8", started_at=timezone.now(),
                                                heartbeat_at=timezone.now())

    assert fail_lost_jobs() == 0  # the run is past one job's time limit, but its shards are alive
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert recover()["taken over"] == 1
    assert _sent(sent) == ["group"]  # the dead worker's shard only, not the run
    run.refresh_from_db()
    assert (run.status, run.claimed_by) == ("running", SHARDS_HOLDER)

    # A shard still running past the hard limit lost its worker: the sweep fails it, not the run.
    RunShard.objects.filter(pk=third.pk).update(started_at=long_ago)
    assert fail_lost_jobs() == 1
    assert [ComparisonRun.objects.get(pk=run.pk).status, RunShard.objects.get(pk=third.pk).status] == [
        "running", "failed"]

    # Every shard ended but none handed the run back (its worker died in between): the sweep sends the run again,
    # and the worker that takes it over merges, or fails it with a failed shard's error.
    RunShard.objects.filter(run=run).update(status="done")
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert recover()["taken over"] == 1
    assert _sent(sent) == [("run", run.pk)]
