"""Peak resident memory of one large upload: the request's side (storing it) and the worker's (extracting it).

Usage: .venv/bin/python benchmarks/upload_memory.py [--files 50] [--mib 20] [--count-mib 4]
with DATABASE_URL (a migrated database) and ENGINE_CACHE_DIR set as for the app.

Writes `--files` files of `--mib` MiB of realistic English text (the samples' agreements and licences, paragraphs
shuffled per file and numbered; within UPLOAD_MAX_FILES and UPLOAD_MAX_FILE_BYTES by default) to a temporary folder,
then runs each side in a fresh process and reports its peak resident memory (VmHWM) above its baseline:
- `store`: intake.store_upload, given the files as the UploadedFiles Django's parser hands a view (each over 2.5 MB
  spooled to a temporary file); baseline: Django set up.
- `extract`: the workloads.extract_upload task's function, in-process as a worker's child runs it; baseline: Django
  set up and the workload's tokenizer loaded, as in a worker that has extracted before.
- `count`: the tokens of `--count-mib` MiB of the text counted in one tokenizer call, then a piece at a time as
  extraction does (extraction/token_count.py); 4 MiB is about a workload's default limit of 1M tokens, the most text
  an upload can keep. (The 20 MiB files themselves never reach the tokenizer: each is refused by the token floor.)
The baseline is the resident memory once the peak is reset (/proc/self/clear_refs), so a transient peak while
setting up does not hide part of the upload's. Prints a Markdown table and writes benchmarks/upload_memory.json.
The organisation and workload it creates are deleted at the end.

The children are also what tests/workloads/documents/extraction/test_memory_is_one_file_whatever_the_number.py runs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*/*.txt"))
MIB = 2**20


def write_text_files(folder: Path, count: int, size: int) -> list[Path]:
    """`count` files of `size` bytes of English text: the samples' paragraphs, shuffled per file and numbered."""
    paragraphs = [p.strip() for sample in SAMPLES for p in sample.read_text().split("\n\n") if p.strip()]
    paths = []
    for index in range(count):
        shuffle = random.Random(index)
        parts, length, number = [], 0, 0
        while length < size:
            number += 1
            part = f"{number}. {shuffle.choice(paragraphs)}\n\n"
            parts.append(part)
            length += len(part.encode())
        path = folder / f"contract-{index + 1:03}.txt"
        path.write_bytes("".join(parts).encode()[:size])
        paths.append(path)
    return paths


def _memory() -> dict[str, int]:
    status = Path("/proc/self/status").read_text().splitlines()
    return {key: int(line.split()[1]) * 1024 for line in status for key in ("VmHWM", "VmRSS")
            if line.startswith(key + ":")}


def _reset_peak() -> int:
    """Resident bytes now, after making that the high-water mark."""
    Path("/proc/self/clear_refs").write_text("5")
    return _memory()["VmRSS"]


def _setup_django() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "costplanner.settings")
    django.setup()


def child_store(workload_pk: int, folder: str) -> dict:
    """Store the folder's files as one upload of the workload, as the upload view does."""
    _setup_django()
    from django.core.files.uploadedfile import UploadedFile

    from workloads.documents.intake import store_upload
    from workloads.models import Workload

    workload = Workload.objects.get(pk=workload_pk)
    paths = sorted(Path(folder).iterdir())
    files = [UploadedFile(path.open("rb"), name=path.name, size=path.stat().st_size) for path in paths]
    baseline = _reset_peak()
    started = time.perf_counter()
    upload = store_upload(workload, None, files)
    return {"upload": upload.pk, "seconds": round(time.perf_counter() - started, 1), **_growth(baseline)}


def child_extract(upload_pk: int) -> dict:
    """Extract the upload with the task's own function, in this process."""
    _setup_django()
    from workloads import tasks
    from workloads.models import Upload

    upload = Upload.objects.select_related("workload").get(pk=upload_pk)
    tasks._tokenizer(upload.workload.target_model)  # a worker keeps its tokenizer loaded between uploads
    baseline = _reset_peak()
    started = time.perf_counter()
    tasks.extract_upload(upload_pk)
    seconds = time.perf_counter() - started
    upload.refresh_from_db()
    return {"status": upload.status, "error": upload.error, "files_done": upload.files_done,
            "kept": upload.items.filter(kept=True).count(), "seconds": round(seconds, 1), **_growth(baseline)}


def child_count(mib: int) -> dict:
    """Count the tokens of `mib` MiB of the text in one tokenizer call, then a piece at a time (as extraction does)."""
    _setup_django()
    from workloads import tasks
    from workloads.documents.extraction.token_count import TokenCount

    tokenizer = tasks._tokenizer(next(iter(_models())))
    with tempfile.TemporaryDirectory() as folder:
        text = write_text_files(Path(folder), 1, mib * MIB)[0].read_text()
    measured = {}
    # In pieces first: memory the whole count freed would otherwise be reused without growing the resident set.
    for way, count in (("pieces", TokenCount(tokenizer)), ("whole", lambda text: len(tokenizer(text)["input_ids"]))):
        baseline = _reset_peak()
        measured[way] = {"tokens": count(text), **_growth(baseline)}
    return measured


def _growth(baseline: int) -> dict:
    peak = _memory()["VmHWM"]
    return {"baseline_mb": round(baseline / 1e6), "peak_mb": round(peak / 1e6),
            "growth_mb": round((peak - baseline) / 1e6)}


def run_child(*args: str, env: dict | None = None, script: str = __file__) -> dict:
    """Run this script (or `script`) as a child process (`store` or `extract`) and return what it printed."""
    done = subprocess.run([sys.executable, script, *args], cwd=ROOT, capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})})
    if done.returncode:
        raise RuntimeError(f"{args[0]} exited with {done.returncode}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _device() -> str:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), "unknown CPU")
    return f"{model}, {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--mib", type=int, default=20)
    parser.add_argument("--count-mib", type=int, default=4,
                        help="MiB of the text whose tokens are counted whole and in pieces (4: about 1M tokens, a "
                             "workload's default limit)")
    args = parser.parse_args()
    _setup_django()
    from workloads.models import Organisation, Workload

    organisation = Organisation.objects.create(name=f"upload memory benchmark {os.getpid()}")
    workload = Workload.objects.create(organisation=organisation, name="Large upload", kind=Workload.Kind.CONTRACTS,
                                       expected_volume=args.files, target_model=next(iter(_models())))
    try:
        with tempfile.TemporaryDirectory() as folder:
            write_text_files(Path(folder), args.files, args.mib * MIB)
            store = run_child("store", str(workload.pk), folder)
        extract = run_child("extract", str(store["upload"]))
        count = run_child("count", str(args.count_mib))
    finally:
        workload.delete()
        organisation.delete()
    result = {"date": date.today().isoformat(), "device": _device(), "files": args.files, "mib_per_file": args.mib,
              "store": store, "extract": extract, "count_mib": args.count_mib, "count": count}
    (ROOT / "benchmarks" / "upload_memory.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"{args.files} files x {args.mib} MiB, {result['device']}, {result['date']}\n")
    print("| side | baseline MB | peak MB (VmHWM) | growth MB | seconds |\n|---|---:|---:|---:|---:|")
    for side, measured in (("store (request)", store), ("extract (worker)", extract)):
        print(f"| {side} | {measured['baseline_mb']:,} | {measured['peak_mb']:,} | {measured['growth_mb']:,} "
              f"| {measured['seconds']} |")
    print(f"\nextraction: {extract['status']}, {extract['files_done']} files read, {extract['kept']} kept")
    print(f"\ncounting the {count['whole']['tokens']:,} tokens of {args.count_mib} MiB of the text: "
          f"{count['whole']['growth_mb']:,} MB above baseline in one call, {count['pieces']['growth_mb']:,} MB a piece "
          f"at a time ({count['pieces']['tokens']:,} tokens)")


def _models() -> dict:
    from django.conf import settings

    return settings.COSTPLANNER_MODELS


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # run as a script: the repository root
    children = {"store": lambda pk, folder: child_store(int(pk), folder), "extract": lambda pk: child_extract(int(pk)),
                "count": lambda mib: child_count(int(mib))}
    if len(sys.argv) > 1 and sys.argv[1] in children:
        print(json.dumps(children[sys.argv[1]](*sys.argv[2:])))
    else:
        main()
