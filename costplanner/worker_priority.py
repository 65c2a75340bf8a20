"""A Celery worker that shares its machine with the web server runs at a lower CPU priority, so that pages stay quick
while a comparison keeps every core busy: the embedded default (scripts/embedded.sh) sets WORKER_NICENESS. A comparison
prices its CPU time, not its wall time (engine.strategies.compare), so waiting for the web server does not change
what it measures.

Set in the worker's main process before its pool starts: the pool's processes, and the threads torch starts in
them, inherit it. A niceness orders processes of one session (Linux's autogroups) or one cgroup: the embedded default
starts its web server and workers from one shell; compose's containers are cgroups, weighed by their CPU shares instead
(docker-compose.yml).
"""

from __future__ import annotations

import logging
import os

from celery.signals import worker_init
from django.conf import settings

log = logging.getLogger(__name__)


@worker_init.connect
def lower_the_workers_priority(**_) -> None:
    wanted = settings.WORKER_NICENESS
    if wanted <= os.getpriority(os.PRIO_PROCESS, 0):
        return  # already as low (a user may not raise a priority again; `nice celery ...` may have done it)
    os.setpriority(os.PRIO_PROCESS, 0, wanted)
    log.info("worker running at niceness %d (WORKER_NICENESS): the web server on this machine goes first", wanted)
