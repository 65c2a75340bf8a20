"""A run, upload, summary or summary e-mail still "running" past the hard time limit lost its worker: beat's sweep
marks it failed, which leaves a scheduled run's period free to be fired again. Jobs still within the limit, and queued
ones however old, are left alone."""

import datetime as dt

import pytest
from django.conf import settings
from django.utils import timezone

from costplanner.celery import app
from tests.workloads.pages.conftest import make_run
from workloads.models import ComparisonRun, ScheduleEvent, Summary, SummaryEmail, Upload
from workloads.reporting.scheduling import refirable_period
from workloads.tasks import LOST_JOB_GRACE_S, fail_lost_jobs

LIMIT = dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + LOST_JOB_GRACE_S)
MINUTE = dt.timedelta(minutes=1)


def job(kind: str, workload, status: str, started_ago: dt.timedelta | None):
    started_at = timezone.now() - started_ago if started_ago is not None else None
    if kind == "run":
        return make_run(workload, status=status, started_at=started_at)
    if kind == "upload":
        return Upload.objects.create(workload=workload, status=status, started_at=started_at)
    if kind == "summary":
        return Summary.objects.create(run=make_run(workload), status=status, started_at=started_at)
    summary = Summary.objects.create(run=make_run(workload), status="done")
    return SummaryEmail.objects.create(summary=summary, recipients="cfo@example.com", status=status,
                                       started_at=started_at)


@pytest.mark.parametrize("kind", ["run", "upload", "summary", "e-mail"])
def test_only_jobs_running_past_the_limit_are_marked_failed(workload, kind):
    swept_at = timezone.now()
    lost = job(kind, workload, "running", LIMIT + MINUTE)
    alive = job(kind, workload, "running", LIMIT - MINUTE)
    waiting = job(kind, workload, "queued", None)
    type(waiting).objects.filter(pk=waiting.pk).update(created_at=swept_at - 2 * LIMIT)
    done = job(kind, workload, "failed", 2 * LIMIT)

    assert fail_lost_jobs() == 1

    lost.refresh_from_db()
    assert lost.status == "failed" and lost.finished_at >= swept_at
    assert lost.error.startswith("its worker stopped without finishing it: still running "
                                 f"{settings.CELERY_TASK_TIME_LIMIT} s after it started")
    assert [type(j).objects.get(pk=j.pk).status for j in (alive, waiting, done)] == ["running", "queued", "failed"]
    assert fail_lost_jobs() == 0


def test_a_lost_scheduled_run_frees_its_period_to_be_fired_again(workload):
    run = make_run(workload, status="running", trigger="scheduled", started_at=timezone.now() - LIMIT - MINUTE)
    ScheduleEvent.objects.create(workload=workload, period=run.period, outcome="queued", run=run)
    assert refirable_period(workload, timezone.now()) is None

    fail_lost_jobs()

    assert ComparisonRun.objects.get(pk=run.pk).status == "failed"
    assert refirable_period(workload, timezone.now()) == run.period


def test_beat_installs_the_sweep_every_quarter_of_an_hour_on_the_default_queue(transactional_db):
    # Not `db`: the scheduler closes connections it finds inside a transaction, as the test's would be.
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import DatabaseScheduler

    DatabaseScheduler(app=app)  # what `celery beat` builds at start: it writes the configured entries

    entry = PeriodicTask.objects.get(name="fail lost jobs")
    assert entry.task == "workloads.fail_lost_jobs" and entry.enabled
    assert (entry.interval.every, entry.interval.period) == (900, "seconds")
    assert app.amqp.router.route({}, entry.task)["queue"].name == "default"
    assert entry.task in app.tasks
