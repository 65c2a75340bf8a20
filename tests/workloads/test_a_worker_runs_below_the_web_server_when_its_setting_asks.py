"""A worker given WORKER_NICENESS (the embedded default's and compose's CPU worker) runs at that CPU niceness, and so
does the pool process that runs its jobs: the web server on the same machine goes first."""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.workloads.live import database_url, start, stop, wait_for, worker_argv


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


@pytest.mark.worker
def test_a_worker_and_its_pool_run_at_the_niceness_the_setting_asks(transactional_db, tmp_path):
    log = tmp_path / "worker.log"
    process = start(worker_argv(), log, DATABASE_URL=database_url(connection.settings_dict),
                    CELERY_BROKER_URL=settings.CELERY_BROKER_URL, SECRET_KEY=os.environ["SECRET_KEY"],
                    WORKER_NICENESS="10")
    try:
        wait_for(lambda: " ready." in log.read_text() or process.poll() is not None, 120, "the worker to start")
        assert process.poll() is None, log.read_text()
        pool = _children(process.pid)

        assert os.getpriority(os.PRIO_PROCESS, 0) == 0  # this test, as the web server, runs at the usual priority
        assert os.getpriority(os.PRIO_PROCESS, process.pid) == 10
        assert pool and [os.getpriority(os.PRIO_PROCESS, p) for p in pool] == [10] * len(pool)
    finally:
        stop(process)
