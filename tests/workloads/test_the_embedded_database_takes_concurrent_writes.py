"""The embedded default's SQLite takes concurrent writers: a double-clicked button or parallel API calls wait
for the write lock instead of answering 500 "database is locked"."""

import os
import subprocess
import sys

from tests.workloads.live import ROOT

# Four threads each read a counter, meet at a barrier (so that all hold a read lock at once), then write it:
# the pattern of a view that checks, then saves. It prints the errors and the final count.
WRITERS = """
import sys, threading, django
from django.conf import settings
if sys.argv[1:] == ["deferred"]:
    settings.DATABASES["default"]["OPTIONS"].pop("transaction_mode")
django.setup()
from django.db import connection, transaction

with connection.cursor() as c:
    c.execute("CREATE TABLE counter (n integer)")
    c.execute("INSERT INTO counter VALUES (0)")
barrier, errors = threading.Barrier(4, timeout=3), []

def write():
    try:
        with transaction.atomic(), connection.cursor() as c:
            c.execute("SELECT n FROM counter")
            n = c.fetchone()[0]
            try:
                barrier.wait()
            except threading.BrokenBarrierError:  # the others already hold or wait for the write lock
                pass
            c.execute("UPDATE counter SET n = %s", [n + 1])
    except Exception as exc:
        errors.append(str(exc))
    finally:
        connection.close()

threads = [threading.Thread(target=write) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
with connection.cursor() as c:
    c.execute("SELECT n FROM counter")
    print(errors, c.fetchone()[0])
"""


def _write_concurrently(tmp_path, *args: str) -> str:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "costplanner.settings", "PYTHONPATH": str(ROOT), "DEBUG": "1",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'embedded.sqlite3'}?timeout=30"}
    result = subprocess.run([sys.executable, "-c", WRITERS, *args], env=env, capture_output=True, text=True,
                            timeout=120, check=True)
    return result.stdout.strip()


def test_concurrent_writers_wait_for_each_other(tmp_path):
    assert _write_concurrently(tmp_path) == "[] 4"


def test_without_immediate_transactions_they_would_fail(tmp_path):
    # The control: SQLite's default deferred transactions fail a writer that read first.
    assert _write_concurrently(tmp_path, "deferred").startswith("['database is locked'")
