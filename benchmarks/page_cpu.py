"""The web process's own CPU per request for the addresses page_load.py fetches, measured in one process.

Usage (a PostgreSQL database of its own, which it migrates and fills as page_load.py does; nothing is started):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cp_prof CELERY_BROKER_URL=redis://127.0.0.1:6379/13 \\
        .venv/bin/python benchmarks/page_cpu.py [--rounds 200] [--json F] [--profile "workload page"]

A logged-in session (the login form, as a browser signs in) and an API token, then page_load.py's three addresses and
the run page of the history's latest finished run (8 strategies, one refused, an answer to each probe) fetched in
turn, round after round, through Django's WSGI application with the environ gunicorn would pass (no test client:
nothing instrumented), each response read to its end, as page_load.py's clients send them (the API read carries the
session cookie too). It reports per address the median process CPU time of a request (this process only) with its
10th and 90th percentiles and the queries one request made, and PostgreSQL's CPU per request over all of them when it
runs on this machine (it shares the cores under load). `--profile NAME` runs cProfile (CPU time) over that
address's requests instead and prints where the time went.

CPU time, not wall time, so that a busy machine slows the figures less; they still move with its load (caches and
hyperthreads are shared), so compare builds interleaved, on one machine, in one sitting.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

from benchmarks.machine import cpu_model  # noqa: E402  (after the path above)
from benchmarks.page_load import PASSWORD, USER, postgres_cpu_seconds  # noqa: E402

HOST = "127.0.0.1"


def _environ(path: str, cookies: dict, method: str = "GET", body: bytes = b"", **headers) -> dict:
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": HOST, "SERVER_PORT": "8731",
        "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": f"{HOST}:8731", "REMOTE_ADDR": HOST, "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr, "wsgi.multithread": False,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0),
        "HTTP_COOKIE": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": "application/x-www-form-urlencoded",
    }
    environ.update({"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()})
    return environ


def _call(app, environ: dict) -> tuple[str, list, bytes]:
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer.update(status=status, headers=response_headers)

    chunks = app(environ, start_response)
    try:
        body = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    return answer["status"], answer["headers"], body


def _set_cookies(headers: list, cookies: dict) -> None:
    for name, value in headers:
        if name.lower() == "set-cookie":
            key, _, rest = value.partition("=")
            cookies[key] = rest.split(";", 1)[0]


def _log_in(app) -> dict:
    """The login form's dance, as page_load.py's clients do it: the session cookie a browser would hold."""
    cookies: dict = {}
    status, headers, body = _call(app, _environ("/accounts/login/", cookies))
    _set_cookies(headers, cookies)
    csrf = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    form = urlencode({"username": USER, "password": PASSWORD, "csrfmiddlewaretoken": csrf}).encode()
    status, headers, _ = _call(app, _environ("/accounts/login/", cookies, "POST", form,
                                             Referer=f"http://{HOST}:8731/accounts/login/"))
    _set_cookies(headers, cookies)
    if not status.startswith("302"):
        raise SystemExit(f"logging in failed: {status}")
    return cookies


def _ids() -> dict:
    from django.contrib.auth.models import User

    from workloads.models import ApiToken, Workload

    user = User.objects.get(username=USER)
    workload = Workload.objects.get(organisation=user.membership.organisation, name="Sample contracts")
    # The run page: the latest of the history's finished runs, 8 strategies (one refused), an answer to each probe.
    run = workload.runs.filter(status="succeeded").latest("created_at", "pk")
    return {"workload": workload.pk, "run": run.pk, "token": ApiToken.issue(user), "runs": workload.runs.count()}


def _fill(history: int) -> None:
    """page_load.py's database, filled as it fills it: the sample, `history` succeeded runs, nothing queued or
    running."""
    from django.contrib.auth.models import User
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    if not User.objects.filter(username=USER).exists():
        call_command("loadsample", "--user", USER, "--password", PASSWORD, stdout=io.StringIO())
    from benchmarks.page_load_history import add_history
    from workloads.comparisons.starting import cancel_run
    from workloads.models import Workload

    workload = Workload.objects.get(organisation__memberships__user__username=USER, name="Sample contracts")
    add_history(workload, history)
    for run in workload.runs.filter(status__in=("queued", "running")):
        cancel_run(run)


def prepare(history: int) -> tuple:
    """Django's WSGI application, the addresses by name (path, headers), the session's cookies and the ids."""
    os.environ.setdefault("SECRET_KEY", "page-cpu-benchmark-" + "x" * 40)
    os.environ.update(DEBUG="0", ALLOWED_HOSTS=f"{HOST},localhost", LOG_LEVEL="WARNING",
                      DJANGO_SETTINGS_MODULE="costplanner.settings")
    from django.core.wsgi import get_wsgi_application

    app = get_wsgi_application()
    _fill(history)
    ids = _ids()
    cookies = _log_in(app)
    paths = {"dashboard": ("/", {}), "workload page": (f"/workloads/{ids['workload']}/", {}),
             "run page": (f"/runs/{ids['run']}/", {}),
             "API runs list": (f"/api/workloads/{ids['workload']}/runs", {"Authorization": f"Bearer {ids['token']}"})}
    return app, paths, cookies, ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--history", type=int, default=20)
    parser.add_argument("--profile", help="an address's name: cProfile its requests instead")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    app, paths, cookies, ids = prepare(args.history)

    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    for _ in range(args.warmup):
        for path, headers in paths.values():
            status, _, _ = _call(app, _environ(path, cookies, **headers))
            assert status.startswith("200"), (path, status)
    queries = {}
    for name, (path, headers) in paths.items():
        with CaptureQueriesContext(connection) as captured:
            _call(app, _environ(path, cookies, **headers))
        queries[name] = len(captured.captured_queries)
    reset_queries()

    if args.profile:
        path, headers = paths[args.profile]
        profile = cProfile.Profile(time.process_time)  # CPU, not the wait for PostgreSQL's answers
        for _ in range(args.rounds):
            profile.enable()
            _call(app, _environ(path, cookies, **headers))
            profile.disable()
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("cumulative").print_stats(60)
        stats.sort_stats("tottime").print_stats(30)
        print(out.getvalue())
        return

    cpu: dict[str, list[float]] = {name: [] for name in paths}
    load_before = [round(x, 2) for x in os.getloadavg()]
    postgres_before = postgres_cpu_seconds()
    for _ in range(args.rounds):
        for name, (path, headers) in paths.items():
            started = time.process_time()
            _call(app, _environ(path, cookies, **headers))
            cpu[name].append((time.process_time() - started) * 1000)
    postgres_after = postgres_cpu_seconds()
    result = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "device": f"{cpu_model()}, {os.cpu_count()} CPU cores, {os.uname().nodename}",
              "load_average_before": load_before,
              "runs_in_workload": ids["runs"], "rounds": args.rounds, "pages": {},
              # All the addresses together, per request: the database's side of the same work.
              "postgres_cpu_ms_per_request": None if postgres_before is None else
              round((postgres_after - postgres_before) * 1000 / (args.rounds * len(paths)), 2)}
    for name, values in cpu.items():
        deciles = statistics.quantiles(values, n=10)
        result["pages"][name] = {"cpu_ms_median": round(statistics.median(values), 2),
                                 "cpu_ms_p10": round(deciles[0], 2), "cpu_ms_p90": round(deciles[-1], 2),
                                 "queries": queries[name]}
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
