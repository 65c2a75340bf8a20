"""A run still "running" past the hard time limit lost its worker: beat's sweep marks it failed, which leaves
its period free to be fired again. Runs still within the limit, and queued ones however old, are left alone."""

import datetime as dt

from django.conf import settings
from django.utils import timezone

from costplanner.celery import app
from tests.workloads.pages.conftest import make_run
from workloads.models import ComparisonRun, ScheduleEvent
from workloads.schedules import refirable_period
from workloads.tasks import LOST_RUN_GRACE_S, fail_lost_runs

LIMIT = dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + LOST_RUN_GRACE_S)


def test_only_runs_running_past_the_limit_are_marked_failed(workload):
    now = timezone.now()
    lost = make_run(workload, status="running", started_at=now - LIMIT - dt.timedelta(minutes=1))
    alive = make_run(workload, status="running", started_at=now - LIMIT + dt.timedelta(minutes=1))
    waiting = make_run(workload, status="queued", created_at=now - 2 * LIMIT)
    done = make_run(workload, status="succeeded", started_at=now - 2 * LIMIT)

    assert fail_lost_runs() == 1

    lost.refresh_from_db()
    assert lost.status == "failed" and lost.finished_at >= now
    assert lost.error.startswith("its worker stopped without finishing it: still running "
                                 f"{settings.CELERY_TASK_TIME_LIMIT} s after it started")
    assert [ComparisonRun.objects.get(pk=r.pk).status for r in (alive, waiting, done)] == ["running", "queued",
                                                                                          "succeeded"]
    assert fail_lost_runs() == 0


def test_a_lost_scheduled_run_frees_its_period_to_be_fired_again(workload):
    run = make_run(workload, status="running", trigger="scheduled",
                   started_at=timezone.now() - LIMIT - dt.timedelta(minutes=1))
    ScheduleEvent.objects.create(workload=workload, period=run.period, outcome="queued", run=run)
    assert refirable_period(workload, timezone.now()) is None

    fail_lost_runs()

    assert refirable_period(workload, timezone.now()) == run.period


def test_beat_installs_the_sweep_every_quarter_of_an_hour_on_the_default_queue(transactional_db):
    # Not `db`: the scheduler closes connections it finds inside a transaction, as the test's would be.
    from django_celery_beat.models import PeriodicTask
    from django_celery_beat.schedulers import DatabaseScheduler

    DatabaseScheduler(app=app)  # what `celery beat` builds at start: it writes the configured entries

    entry = PeriodicTask.objects.get(name="fail lost runs")
    assert entry.task == "workloads.fail_lost_runs" and entry.enabled
    assert (entry.interval.every, entry.interval.period) == (900, "seconds")
    assert app.amqp.router.route({}, entry.task)["queue"].name == "default"
    assert entry.task in app.tasks
