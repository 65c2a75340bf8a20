"""`make run`'s embedded default, with no server: SQLite, a filesystem broker, the web server, a worker and beat.

It loads the sample workload and queues its comparison; the worker claims it and runs
the default model, reporting progress; the demo user sees it and cancels it, and the
worker stops at its next progress report. (A comparison run to the end on a real
worker is the end-to-end test's job, against PostgreSQL and Redis.)
"""

import re
import socket
import sqlite3

import pytest

from tests.workloads.live import ROOT, Browser, start, stop, wait_for

pytestmark = [pytest.mark.model, pytest.mark.worker]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(db) -> tuple | None:
    try:
        with sqlite3.connect(db, timeout=30) as conn:
            return conn.execute("select id, status, progress_done, error from workloads_comparisonrun").fetchone()
    except sqlite3.OperationalError:  # not migrated yet
        return None


def _serving(browser: Browser) -> bool:
    try:
        browser.get("/accounts/login/")
    except OSError:
        return False
    return True


def test_it_runs_the_sample_comparison_with_no_server(tmp_path):
    port, var = _free_port(), tmp_path / "var"
    log = tmp_path / "embedded.log"
    process = start([str(ROOT / "scripts" / "embedded.sh"), str(port)], log, COSTPLANNER_VAR=str(var))
    try:
        wait_for(lambda: "is running at" in log.read_text(), 240, "the embedded default to start")
        output = log.read_text()
        assert f"http://127.0.0.1:{port}/" in output and "demo / demo-password" in output

        browser = Browser(f"http://127.0.0.1:{port}")
        wait_for(lambda: _serving(browser), 60, "the web server")
        dashboard = browser.log_in("demo", "demo-password")
        assert "Sample contracts" in dashboard

        db = var / "costplanner.sqlite3"
        with sqlite3.connect(db) as conn:
            (documents,) = conn.execute("select count(*) from workloads_document where tokens > 0").fetchone()
            (probes,) = conn.execute("select count(*) from workloads_probe").fetchone()
        assert (documents, probes) == (4, 9)

        run_id, *_ = wait_for(lambda: (r := _run(db)) and r[1] == "running" and r[2] >= 1 and r, 300,
                              "the worker to claim the comparison and finish its first call", every=2)
        page = browser.get(f"/runs/{run_id}/")
        assert re.search(r"<progress[^>]*value", page)
        browser.post(f"/runs/{run_id}/cancel/", {})
        wait_for(lambda: "succeeded in" in (var / "worker.log").read_text(), 300,
                 "the worker to stop the cancelled run")
        _, status, _, error = _run(db)
        assert status == "cancelled", error
        assert "beat: Starting" in (var / "beat.log").read_text()
    finally:
        stop(process)
