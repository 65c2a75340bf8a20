"""A comparison spread over many workers: its questions split into shards, each asked with every strategy by
whichever gpu worker takes it, and one report merged from the calls they kept (issue 41).

A run of more than RUN_SHARD_QUESTIONS probes is split into shards when it is queued (split_run, in the web process,
so the operator's setting is read in one place); a run through an endpoint never is (its calls are billed against the
caps as replies come, one worker at a time). The worker that starts it (run_comparison) sends its shards as one
Celery group and hands the run's lease to them (SHARDS_HOLDER): while any shard is queued or running, the sweeps of
lost jobs leave the run alone (ComparisonRun.handed_on) and take over or fail each shard on its own, so a dead worker
costs only its shard, resumed from the calls it kept. Each shard's progress adds up into the run's, and beats for it.
A shard that fails does not stop the others: the run fails once all have ended, and a retry asks only the shards not
done, the calls kept by the others standing.

The last shard to end hands the run back: under the run row's lock it finds no shard still to end and moves the run
from running to queued, once, and queues run_comparison, which merges (engine.strategies.compare with every kept call
answered: it makes none) or, if a shard failed, fails the run with that shard's error. The orchestrator takes the same
lock to decide between handing the run over and merging, so exactly one of them sees the last shard end.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone

from workloads.models import ComparisonRun, RunShard
from workloads.models.comparison_runs import SHARDS_HOLDER
from workloads.models.jobs import FAILED, QUEUED, RUNNING, UNFINISHED_STATUSES
from workloads.workers import dispatch, leases


class ShardFailed(Exception):
    """A shard of the run failed: the run fails with its error, and a retry asks that shard again."""


def split(probes: int, size: int) -> list[list[int]]:
    """The probes' indices in consecutive shards of `size`: each strategy sees the same questions in each."""
    if size < 1:
        raise ValueError(f"RUN_SHARD_QUESTIONS must be at least 1, not {size}")
    return [list(range(start, min(start + size, probes))) for start in range(0, probes, size)]


def split_run(run: ComparisonRun) -> int:
    """Split a run just queued into its shards, if it has more than RUN_SHARD_QUESTIONS probes and reads with the
    worker's engine; how many (0: it stays one job, as every run did before shards). Its probes are those it was
    queued with, in the order the worker reads them (queued_inputs.read), which refuses it if any went meanwhile."""
    probes = len(run.queued_with["probes"]) if run.queued_with else 0
    if run.reader or probes <= settings.RUN_SHARD_QUESTIONS:
        return 0
    return len(RunShard.objects.bulk_create(RunShard(run=run, index=i, questions=questions)
                                            for i, questions in enumerate(split(probes, settings.RUN_SHARD_QUESTIONS))))


def hand_to_shards(run: ComparisonRun, me: str) -> list[RunShard] | None:
    """Send the shards not yet ended of the run held by `me` and hand the run's lease to them: None. When every shard
    has ended instead, its shards, for the caller to merge or fail. Raises leases.Stopped if the run is no longer
    `me`'s (cancelled, taken over)."""
    with transaction.atomic():
        if not ComparisonRun.objects.select_for_update().filter(pk=run.pk, status=RUNNING, claimed_by=me).exists():
            raise leases.Stopped
        waiting = list(run.shards.filter(status__in=UNFINISHED_STATUSES).values_list("pk", flat=True))
        if not waiting:
            return list(run.shards.all())
        # A shard still running is sent again too: its delivery does nothing while its worker lives, and takes it
        # over if that worker is gone.
        ComparisonRun.objects.filter(pk=run.pk).update(claimed_by=SHARDS_HOLDER, heartbeat_at=timezone.now(),
                                                       progress_message=f"{run.shards.count()} shards sent")
        dispatch.queue_shards(*waiting)
    return None


def check_done(shards: Sequence[RunShard]) -> None:
    """Raise ShardFailed unless every shard is done."""
    for shard in shards:
        if shard.status != RunShard.Status.DONE:
            raise ShardFailed(f"shard {shard.index + 1} of {len(shards)} (questions {shard.questions[0] + 1}-"
                              f"{shard.questions[-1] + 1}) {shard.status}: {shard.error or 'no error given'}")


def shard_ended(run_pk: int) -> bool:
    """After a shard ends, however: hand the run back for its merge if no shard is left to end and the shards held
    it; whether this one did."""
    with transaction.atomic():
        if not ComparisonRun.objects.select_for_update().filter(pk=run_pk, status=RUNNING,
                                                                claimed_by=SHARDS_HOLDER).exists():
            return False  # cancelled, or a worker holds it (it decides under the same lock)
        if RunShard.objects.filter(run_id=run_pk, status__in=UNFINISHED_STATUSES).exists():
            return False
        ComparisonRun.objects.filter(pk=run_pk).update(status=QUEUED, claimed_by="", heartbeat_at=None,
                                                       progress_message="merging the shards' answers")
        dispatch.queue_comparison(run_pk)
    return True


def progress(shard: RunShard, me: str):
    """The engine's progress callback for a shard: the shard's own (raising leases.Stopped once it is no longer
    `me`'s: cancelled, taken over), then the run's, the shards' added up, which beats for the run too."""
    of = f"shard {shard.index + 1}"

    def report(done: int, planned: int, message: str) -> None:
        leases.report(RunShard, shard.pk, me, progress_done=done, progress_total=planned)
        totals = RunShard.objects.filter(run_id=shard.run_id).aggregate(
            done=Sum("progress_done"), planned=Sum("progress_total"), shards=Count("pk"),
            ended=Count("pk", filter=Q(status=RunShard.Status.DONE)))
        ComparisonRun.objects.filter(pk=shard.run_id, status=RUNNING, claimed_by=SHARDS_HOLDER).update(
            heartbeat_at=timezone.now(), progress_done=totals["done"], progress_total=totals["planned"],
            progress_message=f"{totals['ended']} of {totals['shards']} shards done; {of}: {message}"[:300])
    return report


def cancel(run: ComparisonRun) -> int:
    """Cancel the run's shards not yet ended (with the run, in its transaction): each running one stops at its next
    progress report. How many."""
    return RunShard.objects.filter(run=run, status__in=UNFINISHED_STATUSES).update(
        status=RunShard.Status.CANCELLED, finished_at=timezone.now())


def requeue_unfinished(run: ComparisonRun) -> int:
    """A failed run retried: its failed or cancelled shards queued again (their kept calls stand); how many. Its
    orchestrator sends them."""
    return sum(RunShard.requeue(pk, (FAILED, RunShard.Status.CANCELLED), progress_done=0, progress_total=0)
               for pk in run.shards.filter(status__in=(FAILED, RunShard.Status.CANCELLED)).values_list("pk", flat=True))
