"""The documented largest upload through the web image's server: `--files` files of `--mib` MiB (UPLOAD_MAX_FILES
and UPLOAD_MAX_FILE_BYTES, 50 x 20 MiB by default) posted to the API in one request, to gunicorn started as the
web image starts it (the Dockerfile's command: deploy/gunicorn.conf.py, sync workers, its timeout (120 s)).

Usage: .venv/bin/python benchmarks/upload_gunicorn.py [--files 50] [--mib 20] [--workers 3] [--json PATH]
with DATABASE_URL (a PostgreSQL database this benchmark may migrate and write to) and CELERY_BROKER_URL (Redis).

It creates an organisation, a member with an API token and a workload; streams the multipart body from the files on
disk (the client holds one 1 MiB piece at a time); and records the answer's status and body, the seconds to it, and
each gunicorn worker's resident memory before the request and its peak (VmHWM) after. No Celery worker runs: the
extraction the upload queues waits in the broker, and the organisation (with the upload and its files) is deleted at
the end. MEDIA_ROOT and FILE_UPLOAD_TEMP_DIR are temporary folders on one filesystem, as the image's volume has them.
Everything listens on and talks to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

from benchmarks import upload_memory  # noqa: E402
from benchmarks.page_load import _descendants, _manage, _start, _stop, _wait  # noqa: E402

PIECE = 2**20


def _memory_kb(pid: int) -> dict[str, int]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {key: int(line.split()[1]) for line in lines for key in ("VmHWM", "VmRSS") if line.startswith(key + ":")}


def _multipart(paths: list[Path]) -> tuple[str, list]:
    """The content type and the body's parts: bytes, or a path to stream from."""
    boundary = uuid.uuid4().hex
    parts: list = []
    for path in paths:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{path.name}"\r\n'
                     "Content-Type: text/plain\r\n\r\n".encode())
        parts.append(path)
        parts.append(b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", parts


def _length(parts: list) -> int:
    return sum(part.stat().st_size if isinstance(part, Path) else len(part) for part in parts)


def _stream(parts: list):
    for part in parts:
        if isinstance(part, Path):
            with part.open("rb") as f:
                yield from iter(lambda: f.read(PIECE), b"")
        else:
            yield part


def post(port: int, path: str, token: str, paths: list[Path]) -> dict:
    content_type, parts = _multipart(paths)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.perf_counter()
    connection.request("POST", path, body=_stream(parts), headers={
        "Authorization": f"Bearer {token}", "Content-Type": content_type, "Content-Length": str(_length(parts))})
    response = connection.getresponse()
    body = response.read()
    seconds = time.perf_counter() - started
    connection.close()
    return {"status": response.status, "seconds": round(seconds, 1), "body": body.decode(errors="replace")[:500],
            "bytes_sent": _length(parts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--mib", type=int, default=20)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers")
    parser.add_argument("--port", type=int, default=8737)
    parser.add_argument("--timeout", type=int, help="gunicorn's worker timeout (default: the config file's, 120 s); "
                                                   "for a checkout of the code before the config file set it")
    parser.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "upload_gunicorn.json")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        parser.error("set DATABASE_URL to a PostgreSQL database this benchmark may write to")
    scratch = Path(tempfile.mkdtemp(prefix="upload-gunicorn-"))
    (scratch / "media").mkdir()
    (scratch / "spool").mkdir()
    env = {**os.environ, "SECRET_KEY": os.environ.get("SECRET_KEY", secrets.token_urlsafe(50)), "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE":
           "costplanner.settings", "MEDIA_ROOT": str(scratch / "media"), "FILE_UPLOAD_TEMP_DIR": str(scratch / "spool")}
    _manage(env, "migrate", "--noinput", "-v", "0")
    os.environ.update({k: env[k] for k in ("SECRET_KEY", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS", "MEDIA_ROOT",
                                           "FILE_UPLOAD_TEMP_DIR")})
    upload_memory._setup_django()
    from django.contrib.auth.models import User

    from workloads.models import ApiToken, Membership, Organisation, Role, Upload, Workload

    organisation = Organisation.objects.create(name=f"upload gunicorn benchmark {os.getpid()}")
    user = User.objects.create_user(f"upload-bench-{os.getpid()}", password=secrets.token_urlsafe(20))
    Membership.objects.create(user=user, organisation=organisation, role=Role.MEMBER)
    workload = Workload.objects.create(organisation=organisation, name="Large upload", kind=Workload.Kind.CONTRACTS,
                                       expected_volume=args.files, target_model=next(iter(upload_memory._models())))
    token = ApiToken.issue(user)
    logs = ROOT / "var" / "upload_gunicorn"
    logs.mkdir(parents=True, exist_ok=True)
    web = None
    try:
        upload_memory.write_text_files(scratch, args.files, args.mib * upload_memory.MIB)
        paths = sorted(scratch.glob("contract-*.txt"))
        web = _start([sys.executable, "-m", "gunicorn", "costplanner.wsgi", "--config", "deploy/gunicorn.conf.py",
                      "--access-logfile", "-", "--workers", str(args.workers),
                      "--bind", f"127.0.0.1:{args.port}", *(["--timeout", str(args.timeout)] if args.timeout else [])],
                     env, logs / "gunicorn.log")
        _wait(lambda: len(_descendants(web.pid)) >= args.workers and _answers(args.port), 60, "gunicorn to answer")
        workers = _descendants(web.pid)
        before = {pid: _memory_kb(pid) for pid in workers}
        answer = post(args.port, f"/api/workloads/{workload.pk}/documents", token, paths)
        after = {pid: _memory_kb(pid) for pid in workers if Path(f"/proc/{pid}").exists()}
        stored = Upload.objects.filter(workload=workload).first()
        sizes = list(stored.files.values_list("size_bytes", flat=True)) if stored else []
        # What the file storage holds (nothing for a checkout that stored the bytes in database rows).
        in_media = sum(path.stat().st_size for path in (scratch / "media").rglob("*") if path.is_file())
        # The worker that served the request is the one whose peak grew most.
        growth = {pid: after[pid]["VmHWM"] - before[pid]["VmRSS"] for pid in after}
        served = max(growth, key=growth.get)
        result = {
            "date": date.today().isoformat(), "device": upload_memory._device(), "files": args.files,
            "mib_per_file": args.mib,
            "gunicorn": f"deploy/gunicorn.conf.py (timeout {args.timeout or 120} s), {args.workers} sync workers",
            **answer, "stored_files": len(sizes), "stored_bytes": sum(sizes), "bytes_in_media_root": in_media,
            "worker_rss_before_mb": round(before[served]["VmRSS"] / 1024),
            "worker_peak_mb": round(after[served]["VmHWM"] / 1024),
            "worker_growth_mb": round(growth[served] / 1024),
            "gunicorn_restarted_a_worker": set(_descendants(web.pid)) != set(workers)}
    finally:
        if web is not None:
            _stop(web)
        workload.delete()
        organisation.delete()
        user.delete()
        shutil.rmtree(scratch, ignore_errors=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def _answers(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/accounts/login/")
        ok = connection.getresponse().status == 200
        connection.close()
        return ok
    except OSError:
        return False


if __name__ == "__main__":
    main()
