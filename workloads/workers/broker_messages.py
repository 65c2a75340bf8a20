"""Which task messages the broker still holds, waiting in a queue or delivered and not yet acknowledged.

A Redis restarted without persistence forgets every message: the rows they were for stay "queued" with nothing on
the way to them. The sweep (recovery) asks here before sending such a row's message again, so that a job merely
waiting behind a long one is not sent twice.
"""

from __future__ import annotations

import base64
import json

from celery import current_app
from django.conf import settings


def held() -> set[tuple[str, int]] | None:
    """(task name, first argument) of every message in the app's queues or unacknowledged; None where the broker is
    not Redis (the filesystem broker of the embedded default keeps its messages on disk)."""
    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        return None
    queues = {settings.CELERY_TASK_DEFAULT_QUEUE, *(r["queue"] for r in settings.CELERY_TASK_ROUTES.values())}
    with current_app.connection_for_read() as connection:
        channel = connection.default_channel
        client = channel.client
        # Each queue is one Redis list per priority step (kombu names them queue, queue\x06\x163, ...).
        keys = [queue if step == 0 else f"{queue}{channel.sep}{step}"
                for queue in queues for step in channel.priority_steps]
        raws = [raw for key in keys for raw in client.lrange(key, 0, -1)]
        raws += [json.dumps(json.loads(entry)[0]) for entry in client.hvals(channel.unacked_key)]
    return {found for found in map(_task_and_pk, raws) if found}


def _task_and_pk(raw: bytes | str) -> tuple[str, int] | None:
    message = json.loads(raw)
    task = message.get("headers", {}).get("task")
    body = message.get("body", "")
    if message.get("properties", {}).get("body_encoding") == "base64":
        body = base64.b64decode(body)
    args = json.loads(body)[0] if body else []
    return (task, args[0]) if task and args else None
