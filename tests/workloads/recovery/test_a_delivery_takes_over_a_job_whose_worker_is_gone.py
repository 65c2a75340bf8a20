"""A delivery of a running job takes it over when its holder's heartbeat is stale, or when the holder was a process
of this machine that has ended (a pool child killed: the message comes back at once); it leaves a live holder's job
alone, and fails a job taken over too many times with the reason. Today it logged "nothing to do" in every case."""

import datetime as dt
import socket
import subprocess

import pytest
from django.conf import settings
from django.utils import timezone

from tests.workloads.pages.conftest import make_run
from workloads.models import ComparisonRun, Summary, SummaryEmail, Upload
from workloads.workers import leases
from workloads.models.jobs import Claim


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _running(workload, kind: str, claimed_by: str, beat_ago_s: float, takeovers: int = 0):
    fields = {"status": "running", "claimed_by": claimed_by, "takeovers": takeovers,
              "heartbeat_at": timezone.now() - dt.timedelta(seconds=beat_ago_s), "started_at": timezone.now()}
    if kind == "run":
        return make_run(workload, **fields)
    if kind == "upload":
        return Upload.objects.create(workload=workload, **fields)
    if kind == "summary":
        return Summary.objects.create(run=make_run(workload), **fields)
    return SummaryEmail.objects.create(summary=Summary.objects.create(run=make_run(workload)),
                                       recipients="cfo@example.com", **fields)


KINDS = ["run", "upload", "summary", "email"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_stale_heartbeat_is_taken_over(workload, kind):
    job = _running(workload, kind, "another-host:1", settings.JOB_STALE_AFTER_S + 1)
    assert leases.claim(type(job), job.pk) is Claim.TAKEN_OVER
    job.refresh_from_db()
    assert job.status == "running" and job.claimed_by == leases.holder() and job.takeovers == 1
    assert leases.claim(type(job), job.pk) is Claim.NONE  # now held, and beating


@pytest.mark.parametrize("kind", KINDS)
def test_a_dead_local_holder_is_taken_over_at_once(workload, kind):
    job = _running(workload, kind, f"{socket.gethostname()}:{_dead_pid()}", 0)
    assert leases.claim(type(job), job.pk) is Claim.TAKEN_OVER


def test_a_live_holder_keeps_its_job(workload):
    elsewhere = _running(workload, "run", "another-host:1", 1)
    here_alive = _running(workload, "run", f"{socket.gethostname()}:1", 1)  # pid 1 lives
    for run in (elsewhere, here_alive):
        assert leases.claim(ComparisonRun, run.pk) is Claim.NONE
        assert ComparisonRun.objects.get(pk=run.pk).claimed_by == run.claimed_by


def test_a_job_taken_over_too_often_fails_with_the_reason(workload):
    run = _running(workload, "run", "another-host:1", settings.JOB_STALE_AFTER_S + 1,
                   takeovers=settings.JOB_MAX_TAKEOVERS)
    assert leases.claim(ComparisonRun, run.pk) is Claim.GAVE_UP
    run.refresh_from_db()
    assert run.status == "failed" and run.finished_at is not None
    assert run.error.startswith(f"its worker stopped without finishing it {settings.JOB_MAX_TAKEOVERS + 1} times")


def test_the_sweep_sends_a_stale_job_again_once(workload, django_capture_on_commit_callbacks):
    import redis

    from workloads.workers import broker_messages
    from workloads.workers.recovery import recover

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    upload = _running(workload, "upload", "another-host:1", settings.JOB_STALE_AFTER_S + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert recover()["taken over"] == 1
        assert recover()["taken over"] == 0  # sent again since its holder last beat: the message is on its way
    assert ("workloads.extract_upload", upload.pk) in broker_messages.held()
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()


@pytest.mark.parametrize("kind, task", [("summary", "workloads.export_summary"), ("email", "workloads.email_summary")])
def test_the_sweep_sends_a_stale_summary_or_mail_again(workload, django_capture_on_commit_callbacks, kind, task):
    import redis

    from workloads.workers import broker_messages
    from workloads.workers.recovery import recover

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    job = _running(workload, kind, "another-host:1", settings.JOB_STALE_AFTER_S + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert recover()["taken over"] == 1
    assert (task, job.pk) in broker_messages.held()
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
