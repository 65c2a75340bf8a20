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


def serve(log: Path, key: str, *flags: str) -> tuple[subprocess.Popen, str]:
    """`python -m engine serve` with the test model (ENGINE_MODEL) on a free port of 127.0.0.1, each request logged
    (to count what it was asked); the process and its base URL once it listens."""
    process = start([sys.executable, "-m", "engine", "--verbose", "serve", "--port", "0", *flags], log,
                    ENGINE_SERVE_API_KEY=key)
    first = wait_for(lambda: re.search(r"on (http://\S+/v1)", log.read_text()) or process.poll() is not None, 180,
                     "the server to listen", every=0.2)
    assert process.poll() is None, log.read_text()
    return process, first.group(1)


def requests_served(log: Path) -> int:
    """The chat completions the server answered, as its log counts them."""
    return log.read_text().count('"POST /v1/chat/completions')


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
