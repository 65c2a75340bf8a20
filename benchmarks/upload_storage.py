"""Storing one large upload's bytes: in database rows (as before) against the file storage (as now), interleaved.

Usage: .venv/bin/python benchmarks/upload_storage.py [--files 50] [--mib 20] [--repeats 3]
with DATABASE_URL (a migrated PostgreSQL database); writes benchmarks/upload_storage.json.

Writes `--files` files of `--mib` MiB of English text (benchmarks/upload_memory.py's) to a temporary folder, then, for
each repeat, runs each way in a fresh process, in an order that rotates between repeats, timing the storing alone and
reading its peak resident memory (VmHWM) above its baseline:
- `rows`: the bytes in 1 MiB bytea rows, inserted one by one in one transaction, as
  workloads.documents.upload_storage did until the originals moved to the file storage (into a scratch table of the
  same shape as the old UploadFileChunk, dropped afterwards);
- `copy`: intake.store_upload into the filesystem storage (a temporary MEDIA_ROOT), each file read and written in
  chunks: what happens when Django's temporary file is on another filesystem, or the file was kept in memory;
- `move`: the same, each file handed over as Django's parser leaves a file over 2.5 MB, a temporary file on the
  storage's filesystem (FILE_UPLOAD_TEMP_DIR): the storage renames it (copying the folder beforehand is not timed).
The filesystem storage does not fsync, PostgreSQL's commit does (its WAL): each way is followed by a timed os.sync()
(`then_sync_seconds`, the whole machine's dirty pages).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository root

from benchmarks import upload_memory  # noqa: E402

WAYS = ("rows", "copy", "move")
CHUNK_BYTES = 2**20  # the old rows' size
SCRATCH = "benchmark_upload_chunk"


def _store_rows(paths: list[Path]) -> None:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        for number, path in enumerate(paths):
            with path.open("rb") as f:
                for index, data in enumerate(iter(lambda: f.read(CHUNK_BYTES), b"")):
                    cursor.execute(f"INSERT INTO {SCRATCH} (file, index, data) VALUES (%s, %s, %s)",
                                   [number, index, data])


def _spooled(path: Path):
    """The file as Django's parser leaves one over 2.5 MB (a TemporaryUploadedFile): the storage moves it."""
    from django.core.files.uploadedfile import UploadedFile

    spooled = UploadedFile(path.open("rb"), name=path.name, size=path.stat().st_size)
    spooled.temporary_file_path = lambda: str(path)
    return spooled


def child(way: str, workload_pk: int, folder: str, media: str) -> dict:
    """Store the folder's files one way, in this process; the seconds and memory it took."""
    os.environ["MEDIA_ROOT"] = media
    upload_memory._setup_django()
    from django.core.files.uploadedfile import UploadedFile
    from django.db import connection

    from workloads.documents.intake import store_upload
    from workloads.models import Workload

    paths = sorted(Path(folder).iterdir())
    if way == "rows":
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE TABLE {SCRATCH} (id bigserial PRIMARY KEY, file integer NOT NULL, "
                           "index integer NOT NULL, data bytea NOT NULL, UNIQUE (file, index))")
    elif way == "move":
        spool = Path(media) / "spool"
        shutil.copytree(folder, spool)
        paths = sorted(spool.iterdir())
    workload = Workload.objects.get(pk=workload_pk)
    files = ([_spooled(path) for path in paths] if way == "move"
             else [UploadedFile(path.open("rb"), name=path.name, size=path.stat().st_size) for path in paths])
    baseline = upload_memory._reset_peak()
    started = time.perf_counter()
    try:
        if way == "rows":
            _store_rows(paths)
        else:
            store_upload(workload, None, files)
        seconds = time.perf_counter() - started
        # What writing the page cache out to disk then takes (the whole machine's, other writers' too): the rows'
        # seconds include their commit's WAL flush, the storage's do not.
        os.sync()
        synced = time.perf_counter() - started - seconds
    finally:
        if way == "rows":
            with connection.cursor() as cursor:
                cursor.execute(f"DROP TABLE {SCRATCH}")
    return {"way": way, "seconds": round(seconds, 2), "then_sync_seconds": round(synced, 2),
            **upload_memory._growth(baseline)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--mib", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    upload_memory._setup_django()
    from workloads.models import Organisation, Workload

    organisation = Organisation.objects.create(name=f"upload storage benchmark {os.getpid()}")
    workload = Workload.objects.create(organisation=organisation, name="Large upload", kind=Workload.Kind.CONTRACTS,
                                       expected_volume=args.files, target_model=next(iter(upload_memory._models())))
    measured = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            upload_memory.write_text_files(Path(folder), args.files, args.mib * upload_memory.MIB)
            for repeat in range(args.repeats):
                for way in WAYS[repeat % len(WAYS):] + WAYS[:repeat % len(WAYS)]:
                    # A media folder beside the files (one filesystem), emptied after each way.
                    with tempfile.TemporaryDirectory(dir=Path(folder).parent) as media:
                        result = upload_memory.run_child(way, str(workload.pk), folder, media, script=__file__)
                    measured.append({"repeat": repeat + 1, **result})
                    print(json.dumps(measured[-1]), flush=True)
    finally:
        workload.delete()  # its uploads' rows; their files went with each media folder
        organisation.delete()
    summary = {way: sorted(m["seconds"] for m in measured if m["way"] == way) for way in WAYS}
    result = {"date": date.today().isoformat(), "device": upload_memory._device(), "files": args.files,
              "mib_per_file": args.mib, "repeats": args.repeats, "measured": measured, "seconds_sorted": summary}
    (ROOT / "benchmarks" / "upload_storage.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"\n{args.files} files x {args.mib} MiB, {result['device']}, {result['date']}, {args.repeats} repeats\n")
    print("| way | seconds (each repeat, sorted) | peak growth MB (max) |\n|---|---|---:|")
    for way in WAYS:
        growth = max(m["growth_mb"] for m in measured if m["way"] == way)
        print(f"| {way} | {', '.join(str(s) for s in summary[way])} | {growth} |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in WAYS:
        print(json.dumps(child(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4])))
    else:
        main()
