"""A queued run or upload whose message the broker lost (Redis restarted without persistence) is sent again by the
sweep, and failed with the reason once it was sent JOB_MAX_RESENDS times; one whose message is still in the broker
is left waiting. Today such a job stayed "queued" for ever."""

import datetime as dt

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from tests.workloads.pages.conftest import make_run
from workloads.models import ComparisonRun, Upload
from workloads.workers import broker_messages
from workloads.workers.recovery import recover


@pytest.fixture
def broker():
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.flushdb()
    yield client
    client.flushdb()


def _long_ago(job) -> None:
    """Queued, or last sent, long enough ago that its message would be sent again were it gone."""
    job.refresh_from_db()
    before = timezone.now() - dt.timedelta(seconds=settings.JOB_LOST_MESSAGE_AFTER_S + 60)
    type(job).objects.filter(pk=job.pk).update(created_at=before, resent_at=job.resent_at and before)


@pytest.mark.parametrize("kind", ["run", "upload"])
def test_a_lost_message_is_sent_again_then_the_job_fails_with_the_reason(broker, workload, kind,
                                                                        django_capture_on_commit_callbacks):
    job = make_run(workload, status="queued") if kind == "run" else Upload.objects.create(workload=workload)
    task = "workloads.run_comparison" if kind == "run" else "workloads.extract_upload"
    _long_ago(job)

    for sent in range(1, settings.JOB_MAX_RESENDS + 1):
        with django_capture_on_commit_callbacks(execute=True):
            assert recover()["sent again"] == 1
        assert (task, job.pk) in broker_messages.held()
        _long_ago(job)
        assert recover()["sent again"] == 0  # its message is waiting in the broker: not sent twice
        job.refresh_from_db()
        assert job.status == "queued" and job.resends == sent
        broker.flushdb()  # the broker restarts and forgets it again

    assert recover()["failed"] == 1
    job.refresh_from_db()
    assert job.status == "failed" and job.finished_at is not None
    assert job.error.startswith(f"its task message was lost by the broker (restarted without persistence?) "
                                f"{settings.JOB_MAX_RESENDS + 1} times")


def test_a_recent_queued_job_is_left_waiting(broker, workload):
    run = make_run(workload, status="queued")
    assert recover() == {"taken over": 0, "sent again": 0, "failed": 0}
    assert ComparisonRun.objects.get(pk=run.pk).resends == 0
