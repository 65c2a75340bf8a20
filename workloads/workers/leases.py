"""The lease a worker holds on a job (a run, upload, sweep, PDF summary or its mail) while it works on it: who holds
it and a heartbeat.

A worker killed mid-job (SIGKILL, the OOM killer, a lost machine) never reports back, and with acks_late its message
comes back either at once (a pool child died: WorkerLostError) or only after the broker's visibility timeout (the
whole worker died), hours later. The lease lets the next delivery, or the sweep's re-sent message
(workloads.workers.recovery), tell a job whose worker is gone from one still at work: it takes the job over when the
holder's heartbeat is stale, or at once when the holder was a process of this same machine that no longer exists.
A task holds its job through `hold` and `Held.work`, which claim, log, beat and fail it the same way for every task.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import socket
import threading

from django.conf import settings
from django.db import connection
from django.utils import timezone

from workloads.models.jobs import Claim, Job

log = logging.getLogger(__name__)


class Stopped(Exception):
    """The job is no longer this worker's: cancelled, failed by the sweep of lost jobs, or taken over by another."""


def report(model: type[Job], pk: int, me: str, **fields) -> None:
    """Record the progress (`fields`) of the worker `me` on the job, in the one UPDATE that also notices that the job
    is no longer its own: then raise Stopped, for the task to stop at once (a task calls this between its units of
    work)."""
    if not model.progress(pk, me, **fields):
        raise Stopped


def holder() -> str:
    """This worker process, as the lease names it."""
    return f"{socket.gethostname()}:{os.getpid()}"


def stale_before() -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=settings.JOB_STALE_AFTER_S)


def _gone(claimed_by: str) -> bool:
    """Whether the holder was a process of this machine that has ended (its pool child was killed, say)."""
    host, _, pid = claimed_by.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # someone else's live process
        return False
    return False


def claim(model: type[Job], pk: int) -> Claim:
    """Claim the job for this worker process (Job.claim), taking it over where its holder's beat is stale or the
    holder was a process of this machine that has ended."""
    return model.claim(pk, holder(), stale_before(), _gone)


@contextlib.contextmanager
def heartbeat(model: type[Job], pk: int):
    """Beat for the job every JOB_HEARTBEAT_S from a thread while the body runs (the body may hold the GIL little:
    torch and the extractors release it). The beat stops when the lease is no longer ours."""
    me, stop = holder(), threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(settings.JOB_HEARTBEAT_S):
                if not model.beat(pk, me):
                    return
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"heartbeat-{model.__name__}-{pk}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


class Held:
    """A job this worker claimed, for one task's body: `work` beats for it and fails it on an error.

    Every job task claimed, logged, beat and failed the same way, five times over; what differs per task (what the
    body does, the refusals a user can act on, what it keeps afterwards) stays in the task.
    """

    def __init__(self, model: type[Job], pk: int, claim: Claim):
        self.model, self.pk, self.claim, self.me = model, pk, claim, holder()
        self.failed = False  # the body ended in a refusal, recorded as the job's error

    @property
    def taken_over(self) -> bool:
        return self.claim is Claim.TAKEN_OVER

    @contextlib.contextmanager
    def work(self, refusals: tuple[type[Exception], ...] = (), internal: str = "internal error: ",
             passing: tuple[type[Exception], ...] = ()):
        """Beat while the body runs. A refusal fails the job with its own words and sets `failed`, for the task to
        stop; a passing error (a mail server's "try later") goes on untouched; any other fails the job as
        `internal` + the error, is logged, and goes on to Celery."""
        try:
            with heartbeat(self.model, self.pk):
                yield self
        except passing:
            raise
        except refusals as exc:
            self.model.fail(self.pk, str(exc), self.me)
            self.failed = True
        except Exception as exc:
            log.exception("%s %s failed", self.model._meta.verbose_name, self.pk)
            self.model.fail(self.pk, f"{internal}{exc}", self.me)
            raise


def hold(model: type[Job], pk: int) -> Held | None:
    """Claim the job for this worker, or take it over from a dead one; None, logged, when there is nothing to do
    (finished, cancelled, failed after too many takeovers, or its worker is alive)."""
    got, name = claim(model, pk), model._meta.verbose_name
    if got not in (Claim.CLAIMED, Claim.TAKEN_OVER):
        log.info("%s %s: %s, nothing to do (finished, cancelled, or its worker is alive)", name, pk, got.value)
        return None
    if got is Claim.TAKEN_OVER:
        log.warning("%s %s: its worker was gone, taken over from the start", name, pk)
    return Held(model, pk, got)
