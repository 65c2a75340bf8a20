"""Runs, uploads, summaries and summary e-mails share one lifecycle (workloads.models.jobs.Job): a worker claims a
queued job once, with a lease (every job holds one, so that one whose worker died is taken over), and only a job
still running takes an outcome, so a cancel or the sweep of lost jobs that came first keeps what it recorded."""

import datetime as dt

import pytest
from django.utils import timezone

from tests.workloads.pages.conftest import make_run
from workloads.models import ComparisonRun, Summary, SummaryEmail, Upload
from workloads.workers import leases
from workloads.models.jobs import Claim

OUTCOMES = {ComparisonRun: "succeeded", Upload: "done", Summary: "done", SummaryEmail: "sent"}


@pytest.fixture(params=OUTCOMES, ids=lambda table: table.__name__)
def job(request, workload):
    """A queued job of each table."""
    if request.param is ComparisonRun:
        return make_run(workload, status="queued")
    if request.param is Upload:
        return Upload.objects.create(workload=workload)
    summary = Summary.objects.create(run=make_run(workload))
    if request.param is Summary:
        return summary
    return SummaryEmail.objects.create(summary=summary, recipients="cfo@example.com")


def test_a_queued_job_is_claimed_once_and_stamped(job):
    table = type(job)
    assert leases.claim(table, job.pk) is Claim.CLAIMED
    assert leases.claim(table, job.pk) is Claim.NONE  # held by a live worker (this one), beating
    job.refresh_from_db()
    assert job.status == "running" and job.started_at is not None and not job.finished
    assert job.claimed_by == leases.holder() and job.heartbeat_at is not None


def test_a_running_job_finishes_with_its_outcome_and_the_fields_given(job):
    table = type(job)
    leases.claim(table, job.pk)
    assert table.finish(job.pk, OUTCOMES[table], error="a note")
    job.refresh_from_db()
    assert (job.status, job.error, job.finished) == (OUTCOMES[table], "a note", True)
    assert job.finished_at >= job.started_at


def test_a_failure_says_why(job):
    table = type(job)
    leases.claim(table, job.pk)
    assert table.fail(job.pk, "the mail server is down")
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "the mail server is down") and job.finished_at is not None


@pytest.mark.parametrize("status", ["queued", "failed", "cancelled"])
def test_a_job_that_is_not_running_keeps_its_status(job, status):
    table = type(job)
    table.objects.filter(pk=job.pk).update(status=status)  # "cancelled" stands for any outcome recorded first
    assert not table.finish(job.pk, OUTCOMES[table]) and not table.fail(job.pk, "too late")
    job.refresh_from_db()
    assert (job.status, job.error, job.finished_at) == (status, "", None)


def test_the_sweep_fails_only_jobs_claimed_before_the_cutoff(job):
    table = type(job)
    leases.claim(table, job.pk)
    assert table.fail_lost(timezone.now() - dt.timedelta(minutes=1), "lost") == 0
    assert table.fail_lost(timezone.now() + dt.timedelta(minutes=1), "lost") == 1
    job.refresh_from_db()
    assert (job.status, job.error) == ("failed", "lost")
