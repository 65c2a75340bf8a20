"""Real Celery workers that a test starts and kills with SIGKILL, with leases short enough for a test: a heartbeat
every second, stale after five."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.workloads.live import database_url, start, stop, wait_for, worker_argv

LEASE = {"JOB_HEARTBEAT_S": "1", "JOB_STALE_AFTER_S": "5"}


class Workers:
    def __init__(self, folder: Path):
        self.folder, self.processes = folder, []

    def start(self) -> tuple[subprocess.Popen, Path, float]:
        """A worker on both queues, once it says it is ready; with its log and when it became ready."""
        from django.conf import settings
        from django.db import connection

        log = self.folder / f"worker-{len(self.processes)}.log"
        process = start(worker_argv(), log, DATABASE_URL=database_url(connection.settings_dict),
                        CELERY_BROKER_URL=settings.CELERY_BROKER_URL, SECRET_KEY=os.environ["SECRET_KEY"], **LEASE)
        self.processes.append(process)
        wait_for(lambda: " ready." in log.read_text() or process.poll() is not None, 120, "the worker to start",
                 every=0.2)
        assert process.poll() is None, log.read_text()
        return process, log, time.monotonic()

    @staticmethod
    def kill(process: subprocess.Popen) -> None:
        """SIGKILL the worker and its pool children at once, as the OOM killer or a lost machine would."""
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


@pytest.fixture
def workers(transactional_db, tmp_path, settings):
    import redis

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()  # no stale message may claim a new row's primary key
    for name, value in LEASE.items():
        setattr(settings, name, int(value))
    pool = Workers(tmp_path)
    yield pool
    for process in pool.processes:
        stop(process)
