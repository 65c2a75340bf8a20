"""Getting jobs (runs, uploads, sweeps, PDF summaries and their mails) whose worker or message was lost going again.

Two losses leave a job with nothing on the way to it:
- its worker died mid-job: the heartbeat goes stale (leases), and the message comes back only after the
  broker's visibility timeout, hours later, when the whole worker died;
- the broker lost its message (a Redis restart without persistence): the row stays queued.
The sweep sends such a job's message again; the delivery claims it (leases.claim), taking it over from the dead
worker. A queued job whose message was sent again JOB_MAX_RESENDS times is failed with the reason.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from workloads.models import (Alert, ComparisonRun, GroupSweep, RunShard, StrategyResult, Summary, SummaryEmail,
                              Upload)
from workloads.models.jobs import FAILED, QUEUED, RUNNING
from workloads.workers import broker_messages, dispatch

log = logging.getLogger(__name__)

# The jobs that hold a lease, and how their message is sent.
TASKS = {ComparisonRun: ("workloads.run_comparison", dispatch.queue_comparison),
         Upload: ("workloads.extract_upload", dispatch.queue_extraction),
         GroupSweep: ("workloads.run_group_sweep", dispatch.queue_group_sweep),
         Summary: ("workloads.export_summary", dispatch.queue_summary),
         SummaryEmail: ("workloads.email_summary", dispatch.queue_email),
         RunShard: ("workloads.run_shard", dispatch.queue_shards)}


def clear_partial_run(run_pk: int) -> None:
    """What a run taken over from a dead worker may have left: results are stored with "succeeded", in one
    transaction, so there should be none, but a run must end with exactly one set of them."""
    StrategyResult.objects.filter(run_id=run_pk).delete()  # their probe answers go with them
    Alert.objects.filter(run_id=run_pk).delete()
    ComparisonRun.objects.filter(pk=run_pk).update(progress_done=0, progress_total=0, progress_message="", report=None)


def recover() -> dict[str, int]:
    """Send again the jobs whose worker or message was lost; how many of each outcome."""
    now = timezone.now()
    stale = now - dt.timedelta(seconds=settings.JOB_STALE_AFTER_S)
    lost_after = now - dt.timedelta(seconds=settings.JOB_LOST_MESSAGE_AFTER_S)
    held = broker_messages.held()
    counts = {"taken over": 0, "sent again": 0, "failed": 0}
    for model, (task, send) in TASKS.items():
        # Running, silent, and not sent again since its holder last beat (or that message too is long gone).
        silent = model.objects.filter(status=RUNNING, heartbeat_at__lt=stale).filter(
            Q(resent_at__isnull=True) | Q(resent_at__lt=F("heartbeat_at")) | Q(resent_at__lt=lost_after))
        if (handed_on := model.handed_on()) is not None:  # a sharded run's shards are recovered, not the run
            silent = silent.exclude(handed_on)
        for pk in silent.values_list("pk", flat=True):
            if _resend(model, pk, RUNNING, send):
                counts["taken over"] += 1
        if held is None:  # a broker that keeps its messages on disk loses none
            continue
        waiting = model.objects.filter(status=QUEUED, created_at__lt=lost_after).filter(
            Q(resent_at__isnull=True) | Q(resent_at__lt=lost_after))
        for pk, resends in waiting.values_list("pk", "resends"):
            if (task, pk) in held:
                continue
            if resends >= settings.JOB_MAX_RESENDS:
                counts["failed"] += model.objects.filter(pk=pk, status=QUEUED).update(
                    status=FAILED, finished_at=now,
                    error=f"its task message was lost by the broker (restarted without persistence?) {resends + 1} "
                          "times, so no worker ever received it: retry it")
            elif _resend(model, pk, QUEUED, send):
                counts["sent again"] += 1
    if any(counts.values()):
        log.warning("recovered jobs: %s", counts)
    return counts


def _resend(model, pk: int, status: str, send) -> bool:
    """Stamp the row as sent again (so that the next sweep waits for this message) and send it."""
    if not model.objects.filter(pk=pk, status=status).update(resent_at=timezone.now(), resends=F("resends") + 1):
        return False
    send(pk)
    return True
