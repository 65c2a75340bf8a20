"""`make run`'s embedded default, with no server: SQLite, a filesystem broker, the web server, a worker and beat.

It loads the sample workload, runs its comparison on the default model in the worker,
and shows it to the demo user.
"""

import socket
import sqlite3

import pytest

from tests.workloads.live import ROOT, Browser, start, stop, wait_for

pytestmark = [pytest.mark.model, pytest.mark.worker]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run_status(db) -> str | None:
    try:
        with sqlite3.connect(db, timeout=30) as conn:
            row = conn.execute("select status, error from workloads_comparisonrun order by id desc limit 1").fetchone()
    except sqlite3.OperationalError:  # not migrated yet
        return None
    return row and (row[0] if row[0] != "failed" else f"failed: {row[1]}")


def test_it_runs_the_sample_comparison_with_no_server(tmp_path):
    port = _free_port()
    log = tmp_path / "embedded.log"
    # One strategy keeps the test short; `make run` queues all five.
    process = start([str(ROOT / "scripts" / "embedded.sh"), str(port)], log, COSTPLANNER_VAR=str(tmp_path / "var"),
                    SAMPLE_STRATEGIES="full_index_share")
    try:
        wait_for(lambda: "is running at" in log.read_text(), 240, "the embedded default to start")
        output = log.read_text()
        assert f"http://127.0.0.1:{port}/" in output and "demo / demo-password" in output

        browser = Browser(f"http://127.0.0.1:{port}")
        wait_for(lambda: _answers(browser), 60, "the web server")
        dashboard = browser.log_in("demo", "demo-password")
        assert "Sample contracts" in dashboard

        db = tmp_path / "var" / "costplanner.sqlite3"
        status = wait_for(lambda: _run_status(db) not in (None, "queued", "running") and _run_status(db),
                          420, "the sample comparison to finish", every=3)
        assert status == "succeeded", status
        with sqlite3.connect(db) as conn:
            (documents,) = conn.execute("select count(*) from workloads_document where tokens > 0").fetchone()
            (answers,) = conn.execute("select count(*) from workloads_probeanswer").fetchone()
        assert documents == 4 and answers == 9
        assert "beat: Starting" in (tmp_path / "var" / "beat.log").read_text()
    finally:
        stop(process)


def _answers(browser: Browser) -> bool:
    try:
        browser.get("/accounts/login/")
    except OSError:
        return False
    return True
