"""What every job table shares: a status that a worker moves from queued to running to an outcome, the error that
ended it, and when it was asked for, claimed and finished.

Runs, uploads, group-size sweeps, summaries and summary e-mails are jobs. Each table names its own outcomes
("succeeded", "done", "sent", ...) beside the three every job has, queued, running and failed; the methods below
move a row between them with one conditional UPDATE each, so that a task delivered twice, a cancel, or the sweep of
lost jobs never overwrites an outcome another process recorded first.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Callable

from django.conf import settings
from django.db import models
from django.db.models import F
from django.utils import timezone

QUEUED, RUNNING, FAILED = "queued", "running", "failed"
# A job in one of these still has a worker to come or at work on it.
UNFINISHED_STATUSES = (QUEUED, RUNNING)


class Claim(enum.Enum):
    """What a worker's claim on a job got."""

    NONE = "none"  # finished, cancelled, or held by a live worker: nothing to do
    CLAIMED = "claimed"  # was queued
    TAKEN_OVER = "taken over"  # its worker was gone: start again from the beginning
    GAVE_UP = "gave up"  # taken over too many times: marked failed


class DoneStatus(models.TextChoices):
    """The statuses of a job whose one good outcome is "done" (a PDF summary), and which a user may cancel."""

    QUEUED = QUEUED
    RUNNING = RUNNING
    DONE = "done"
    FAILED = FAILED
    CANCELLED = "cancelled"


def status_field(choices: type[models.TextChoices], **options) -> models.CharField:
    """A job table's status column: its own outcomes among `choices`, besides queued, running and failed."""
    assert {QUEUED, RUNNING, FAILED} <= set(choices.values), f"{choices} lacks a status every job has"
    return models.CharField(max_length=10, choices=choices.choices, default=QUEUED, **options)


class Job(models.Model):
    """A row a Celery task works on. A concrete table adds `status = status_field(Status)`."""

    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)  # when a worker claimed it
    finished_at = models.DateTimeField(null=True, blank=True)
    # The lease a job's worker holds while at work on it (workloads.workers.leases): which worker process holds it,
    # "host:pid", and when it last said it was alive. A running job whose beat went stale lost its worker and may be
    # taken over.
    claimed_by = models.CharField(max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    takeovers = models.PositiveSmallIntegerField(default=0)  # how many times a worker took it over from a dead one
    # When its task message was last sent again by the sweep (workloads.workers.recovery), and how many times.
    resent_at = models.DateTimeField(null=True, blank=True)
    resends = models.PositiveSmallIntegerField(default=0)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]

    @property
    def finished(self) -> bool:
        return self.status not in UNFINISHED_STATUSES

    @classmethod
    def claim(cls, pk: int, holder: str, stale_before: dt.datetime, gone: Callable[[str], bool]) -> Claim:
        """Queued -> running, held by `holder`; or a running job whose holder is gone (its heartbeat older than
        `stale_before`, or `gone(holder)`) taken over, from the start. One conditional UPDATE each."""
        now = timezone.now()
        if cls.objects.filter(pk=pk, status=QUEUED).update(status=RUNNING, started_at=now, claimed_by=holder,
                                                           heartbeat_at=now):
            return Claim.CLAIMED
        row = cls.objects.filter(pk=pk, status=RUNNING).values("claimed_by", "heartbeat_at", "takeovers").first()
        # A row with no heartbeat was claimed before leases existed: the sweep of lost jobs (fail_lost) ends it.
        if row is None or row["heartbeat_at"] is None or not (row["heartbeat_at"] < stale_before
                                                              or gone(row["claimed_by"])):
            return Claim.NONE
        # Conditional on the lease as read: of two deliveries racing for the same dead worker's job, one wins.
        held = cls.objects.filter(pk=pk, status=RUNNING, claimed_by=row["claimed_by"],
                                  heartbeat_at=row["heartbeat_at"])
        if row["takeovers"] >= settings.JOB_MAX_TAKEOVERS:
            held.update(status=FAILED, finished_at=now,
                        error=f"its worker stopped without finishing it {row['takeovers'] + 1} times (killed, or out "
                              "of memory): not tried again; retry it once the cause is fixed")
            return Claim.GAVE_UP
        if held.update(claimed_by=holder, heartbeat_at=now, started_at=now, takeovers=F("takeovers") + 1):
            return Claim.TAKEN_OVER
        return Claim.NONE

    @classmethod
    def progress(cls, pk: int, holder: str, **fields) -> bool:
        """Running and held by `holder` -> `fields` set (its progress); whether it still was. A worker records its
        progress this way between its units of work, and stops when it was not: cancelled, or taken over."""
        return bool(cls.objects.filter(pk=pk, status=RUNNING, claimed_by=holder).update(**fields))

    @classmethod
    def beat(cls, pk: int, holder: str) -> bool:
        """Running and held by `holder` -> its heartbeat now; whether it still was."""
        return cls.progress(pk, holder, heartbeat_at=timezone.now())

    @classmethod
    def finish(cls, pk: int, status: str, held_by: str | None = None, **fields) -> bool:
        """Running -> `status`, stamped, with `fields` set too; whether it was still running (and, given `held_by`,
        still held by that worker: one that another took over from records nothing). A run cancelled meanwhile, or a
        job the sweep already failed, keeps what it says."""
        running = cls.objects.filter(pk=pk, status=RUNNING)
        if held_by is not None:
            running = running.filter(claimed_by=held_by)
        return bool(running.update(status=status, finished_at=timezone.now(), **fields))

    @classmethod
    def fail(cls, pk: int, error: str, held_by: str | None = None) -> bool:
        """Running -> failed, saying why; whether it was still running."""
        return cls.finish(pk, FAILED, held_by, error=error)

    @classmethod
    def cancel(cls, pk: int, status: str, **fields) -> bool:
        """Queued or running -> `status` (its table's own "cancelled"), stamped, with `fields` set too; whether it
        was still unfinished. A running job's worker notices at its next progress report (`progress`), and its
        heartbeat stops at its next beat: the lease ends with the job."""
        return bool(cls.objects.filter(pk=pk, status__in=UNFINISHED_STATUSES).update(
            status=status, finished_at=timezone.now(), **fields))

    @classmethod
    def requeue(cls, pk: int, statuses: tuple[str, ...], **fields) -> bool:
        """One of `statuses` (failed, perhaps cancelled) -> queued, as a new job: no error, no lease, no takeovers or
        resends, with `fields` reset too; whether it was in one of them. The caller queues its task again."""
        return bool(cls.objects.filter(pk=pk, status__in=statuses).update(
            status=QUEUED, error="", started_at=None, finished_at=None, claimed_by="", heartbeat_at=None, takeovers=0,
            resent_at=None, resends=0, **fields))

    @classmethod
    def handed_on(cls) -> models.Expression | None:
        """The running rows whose work other jobs hold, each with its own lease (a run's shards): the sweeps leave
        them to those jobs. None: every row is its own worker's."""
        return None

    @classmethod
    def fail_lost(cls, started_before: dt.datetime, error: str) -> int:
        """Fail the jobs still running that a worker claimed before `started_before`; how many."""
        lost = cls.objects.filter(status=RUNNING, started_at__lt=started_before)
        if (handed_on := cls.handed_on()) is not None:
            lost = lost.exclude(handed_on)
        return lost.update(status=FAILED, finished_at=timezone.now(), error=error)
