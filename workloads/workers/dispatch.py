"""Queueing the app's Celery tasks, by name, once the caller's transaction commits.

The services and views queue work here instead of importing workloads.tasks: the tasks call those services, so an
import either way back made a loop (tasks -> schedules -> runs -> tasks), and the web process need not load the task
module and the engine code it reaches. Celery routes a task sent by name as it routes the task's own .delay()
(CELERY_TASK_ROUTES is keyed by name). Queued on commit, as .delay_on_commit() does: a worker never looks for a row
that is not there yet, and a transaction that rolls back queues nothing.
"""

from __future__ import annotations

import functools

from celery import current_app, group, signature
from django.db import transaction


def queue_extraction(upload_pk: int) -> None:
    _on_commit("workloads.extract_upload", upload_pk)


def queue_probe_generation(workload_pk: int, limit: int) -> None:
    _on_commit("workloads.generate_probes", workload_pk, limit)


def queue_comparison(run_pk: int) -> None:
    _on_commit("workloads.run_comparison", run_pk)


def queue_shards(*shard_pks: int) -> None:
    """A sharded run's shards, as one Celery group: each its own task on the gpu queue, for as many workers as there
    are to take them. Not a chord: a chord's counter lives in the result backend and counts a task once it ends, so a
    shard taken over from a dead worker, or sent again by the sweep, would end it early or never; the last shard to
    end hands the run back instead (workloads.comparisons.shards.shard_ended), decided by a conditional UPDATE."""
    if shard_pks:
        transaction.on_commit(lambda: group(signature("workloads.run_shard", (pk,)) for pk in shard_pks).apply_async())


def queue_group_sweep(sweep_pk: int) -> None:
    _on_commit("workloads.run_group_sweep", sweep_pk)


def queue_summary(summary_pk: int) -> None:
    _on_commit("workloads.export_summary", summary_pk)


def queue_email(email_pk: int) -> None:
    _on_commit("workloads.email_summary", email_pk)


def _on_commit(task: str, *args) -> None:
    transaction.on_commit(functools.partial(current_app.send_task, task, args))
