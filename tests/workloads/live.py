"""Real processes for end-to-end tests: a Celery worker, and a browser-like HTTP session."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def database_url(db: dict) -> str:
    """A DATABASE_URL for Django's connection settings (the test database, once pytest-django made it)."""
    return f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start(argv: list[str], log: Path, **env) -> subprocess.Popen:
    """Start a process in its own session, so that stop() ends it and everything it forked."""
    return subprocess.Popen(argv, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, **env})


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def wait_for(condition, timeout: float, what: str, every: float = 1.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def worker_argv(queues: str = "default,gpu") -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "costplanner", "worker", "-Q", queues, "--concurrency", "1",
            "--without-gossip", "--without-mingle", "--loglevel", "INFO"]


class Browser:
    """Cookies and CSRF over plain HTTP, as a browser would send them."""

    def __init__(self, base: str):
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, data: dict) -> str:
        csrf = next(c.value for c in self.cookies if c.name == "csrftoken")
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": csrf}).encode()
        request = urllib.request.Request(self.base + path, data=body, headers={"Referer": self.base + path})
        with self.opener.open(request, timeout=30) as response:
            return response.read().decode()

    def log_in(self, username: str, password: str) -> str:
        page = self.get("/accounts/login/")
        assert re.search(r'name="csrfmiddlewaretoken"', page)
        return self.post("/accounts/login/", {"username": username, "password": password})
