"""Sign-in CPU at the password hasher's cost (issue 40, item 7): what one password check costs, and what a burst of
simultaneous sign-ins does to the web server and to the pages it serves meanwhile.

Usage (a PostgreSQL database of its own, which it migrates and gives --concurrent users):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cp_bench .venv/bin/python benchmarks/sign_in_cost.py \\
        [--concurrent 20] [--repeats 5] [--json benchmarks/sign_in_cost.json]

What it measures, in order:
- one `check_password` in this process, with the hasher the settings use (Django's PBKDF2-SHA256 at its default
  iterations) and, for comparison, Django's built-in scrypt hasher at its defaults: the median of --repeats, as
  process CPU seconds and wall seconds;
- gunicorn as the web image runs it (deploy/gunicorn.conf.py, 3 sync workers by default) on loopback: --concurrent
  people, each with the login page and its CSRF token already fetched, post the login form at the same instant;
  each sign-in's latency, the web server's CPU seconds for the burst, and the latency of the login page (a page that
  checks no password) fetched every 0.1 s by one more client during the burst.

Bounded: at most 50 sign-ins at once; it listens on and talks to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import statistics
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

from benchmarks.machine import cpu_model  # noqa: E402  (after the path above)
from benchmarks.page_load import _answers, _cpu_seconds, _environment, _manage, _start, _stop, _wait  # noqa: E402

MAX_CONCURRENT = 50
PASSWORD = "sign-in-benchmark-password"


def _args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers")
    parser.add_argument("--port", type=int, default=8733)
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    if not 1 <= args.concurrent <= MAX_CONCURRENT:
        parser.error(f"--concurrent must be 1 to {MAX_CONCURRENT}")
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        parser.error("set DATABASE_URL to a PostgreSQL database this benchmark may fill")
    return args


def _one_check(hasher_path: str, repeats: int) -> dict:
    from django.utils.module_loading import import_string

    hasher = import_string(hasher_path)()
    encoded = hasher.encode(PASSWORD, hasher.salt())
    cpu, wall = [], []
    for _ in range(repeats):
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        assert hasher.verify(PASSWORD, encoded)  # what check_password runs
        cpu.append(time.process_time() - cpu_start)
        wall.append(time.perf_counter() - wall_start)
    parameters = {k: v for k, v in hasher.safe_summary(encoded).items() if k not in ("algorithm", "salt", "hash")}
    return {"hasher": hasher.algorithm, "parameters": parameters,
            "cpu_ms": round(statistics.median(cpu) * 1000), "wall_ms": round(statistics.median(wall) * 1000)}


def _setup(env: dict, concurrent: int) -> list[str]:
    """The users who sign in, each with the settings' hasher (one hash computed, stored for all)."""
    _manage(env, "migrate", "--noinput", "-v", "0")
    os.environ.update({k: env[k] for k in ("SECRET_KEY", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS")})
    import django

    django.setup()
    from axes.models import AccessAttempt
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User

    AccessAttempt.objects.all().delete()
    encoded = make_password(PASSWORD)
    names = [f"signin{i}" for i in range(concurrent)]
    for name in names:
        User.objects.update_or_create(username=name, defaults={"password": encoded, "is_active": True})
    return names


class _Unfollowed(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a sign-in's redirect is its answer: the page it leads to is not part of its cost


class Person:
    """One person at the login form: the page and its CSRF token fetched, ready to post."""

    def __init__(self, base: str, username: str):
        self.base, self.username = base, username
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  _Unfollowed)
        page = self.opener.open(base + "/accounts/login/", timeout=60).read().decode()
        self.csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)

    def sign_in(self) -> tuple[float, bool]:
        """The seconds the login form's post took, and whether it signed in (redirected to the dashboard)."""
        body = urllib.parse.urlencode({"username": self.username, "password": PASSWORD,
                                       "csrfmiddlewaretoken": self.csrf}).encode()
        request = urllib.request.Request(self.base + "/accounts/login/", data=body,
                                         headers={"Referer": self.base + "/accounts/login/"})
        started = time.perf_counter()
        try:
            self.opener.open(request, timeout=300).read()
            signed_in = False  # the form again, with its error
        except urllib.error.HTTPError as exc:
            signed_in = exc.code == 302 and exc.headers.get("Location") == "/"
        return time.perf_counter() - started, signed_in


def _ms(seconds: list[float]) -> dict:
    ordered = sorted(seconds)
    return {"count": len(ordered), "p50_ms": round(statistics.median(ordered) * 1000),
            "max_ms": round(ordered[-1] * 1000)}


def _burst(base: str, names: list[str], web_pid: int) -> dict:
    people = [Person(base, name) for name in names]
    barrier = threading.Barrier(len(people) + 1)
    results: list[tuple[float, bool]] = []
    page_latencies: list[float] = []
    done = threading.Event()
    lock = threading.Lock()

    def sign_in(person: Person) -> None:
        barrier.wait()
        result = person.sign_in()
        with lock:
            results.append(result)

    def probe() -> None:  # a page that checks no password, fetched while the sign-ins are served
        barrier.wait()
        while not done.is_set():
            started = time.perf_counter()
            urllib.request.urlopen(base + "/accounts/login/", timeout=300).read()
            page_latencies.append(time.perf_counter() - started)
            time.sleep(0.1)

    threads = [threading.Thread(target=sign_in, args=(p,), daemon=True) for p in people]
    prober = threading.Thread(target=probe, daemon=True)
    for thread in [*threads, prober]:
        thread.start()
    cpu_before, load_before = _cpu_seconds(web_pid), os.getloadavg()
    started = time.perf_counter()
    for thread in threads:
        thread.join(600)
    seconds = time.perf_counter() - started
    done.set()
    prober.join(300)
    return {"sign_ins": _ms([latency for latency, _ in results]),
            "signed_in": sum(ok for _, ok in results), "burst_seconds": round(seconds, 2),
            "web_cpu_seconds": round(_cpu_seconds(web_pid) - cpu_before, 2),
            "login_page_during_burst": _ms(page_latencies),
            "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)]}


def main() -> None:
    args = _args()
    env = _environment()
    names = _setup(env, args.concurrent)
    from django.conf import settings

    checks = [_one_check(path, args.repeats) for path in
              (settings.PASSWORD_HASHERS[0], "django.contrib.auth.hashers.ScryptPasswordHasher")]
    logs = ROOT / "var" / "sign_in_cost"
    logs.mkdir(parents=True, exist_ok=True)
    base = f"http://127.0.0.1:{args.port}"
    web = _start([sys.executable, "-m", "gunicorn", "costplanner.wsgi", "--config", "deploy/gunicorn.conf.py",
                  "--timeout", "120", "--workers", str(args.workers), "--bind", f"127.0.0.1:{args.port}"],
                 env, logs / "gunicorn.log")
    try:
        _wait(lambda: _answers(base), 60, "gunicorn to answer")
        for _ in range(2):  # each worker's first requests, whose set-up no figure should include
            _answers(base)
        burst = _burst(base, names, web.pid)
    finally:
        _stop(web)
    result = {"benchmark": "sign_in_cost", "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "device": f"{cpu_model()}, {os.cpu_count()} cores", "gunicorn_workers": args.workers,
              "one_check": checks, "concurrent": args.concurrent, **burst}
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
