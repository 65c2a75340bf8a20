"""Every worker asks for the sweep of lost jobs (workloads.workers.recovery) when it starts and every JOB_STALE_AFTER_S
after, so that jobs whose worker died are taken over where beat is not running too (the embedded default, a
deployment with workers only). Several workers asking is harmless: the sweep sends a lost job's message once."""

from __future__ import annotations

import logging
import threading
import time

from celery import current_app
from celery.signals import worker_ready
from django.conf import settings

SWEEP = "workloads.recover_jobs"
log = logging.getLogger(__name__)


@worker_ready.connect(dispatch_uid="workloads_ask_for_sweeps")
def ask_for_sweeps(**kwargs) -> None:
    threading.Thread(target=_ask, name="ask-for-sweeps", daemon=True).start()


def _ask() -> None:
    every = settings.JOB_STALE_AFTER_S
    while True:
        # Expiring: asks left waiting behind a long job on a busy queue are dropped, not run in a pile.
        try:
            current_app.send_task(SWEEP, expires=every)
        except Exception:  # the broker is down for a moment: ask again next time
            log.exception("could not ask for the sweep of lost jobs")
        time.sleep(every)
