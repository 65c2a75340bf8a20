"""PDF and DOCX files are read in a short-lived child process, with a memory cap and a deadline.

pdfium and lxml are C code fed untrusted bytes, and a small file can ask them for a lot: a 776 KB PDF whose one
content stream inflates to hundreds of MB made pdfium take 2.6 GB. In the worker itself that ends with the kernel
killing it and, tasks being acknowledged late, the message coming back to kill the next worker. In a child it only
refuses that file; the rest of the upload is kept.

subprocess, not multiprocessing: Celery's prefork pool children are daemonic, and a daemonic process may not start
multiprocessing children. The child (`python -m workloads.documents.extraction`, which needs nothing from Django) reads
the file from stdin and writes its result to stdout as JSON.
"""

import dataclasses
import json
import resource
import signal
import subprocess
import sys
from pathlib import Path

from .datatypes import Limits, Skip, human_size
from .formats import read_docx, read_pdf

# The child runs `-m workloads.documents.extraction` from the folder that holds the workloads package.
_PROJECT_ROOT = Path(__file__).resolve().parents[3]
# Exit status of a child whose reader raised MemoryError. pdfium ends itself with abort() when an allocation fails
# (FX_OutOfMemoryTerminate), so SIGABRT means the same; its other checks crash with a trap instead.
_OUT_OF_MEMORY = 75


def read_in_child(kind: str, data: bytes, limits: Limits) -> tuple[str, str]:
    """(text, detail) of a "PDF" or "DOCX" file, or Skip, also when it needs more memory or time than limits allow."""
    command = [sys.executable, "-m", "workloads.documents.extraction", kind, json.dumps(dataclasses.asdict(limits))]
    try:
        child = subprocess.run(command, input=data, capture_output=True, cwd=_PROJECT_ROOT,
                               timeout=limits.reader_timeout_s)
    except subprocess.TimeoutExpired:
        raise _too_slow(kind, limits) from None
    status = child.returncode
    if status in (_OUT_OF_MEMORY, -signal.SIGABRT):
        raise Skip(f"{kind} needs more than {human_size(limits.max_reader_memory_bytes)} of memory to read: refused")
    if status == -signal.SIGALRM:
        raise _too_slow(kind, limits)
    if status < 0:
        raise Skip(f"{kind} crashed its reader ({signal.strsignal(-status) or f'signal {-status}'}): refused")
    if status != 0:  # a bug of ours, not a property of the file: fail loudly
        raise RuntimeError(f"the {kind} reader exited with status {status}: {child.stderr.decode()[-2000:]}")
    result = json.loads(child.stdout)
    if "skip" in result:
        raise Skip(result["skip"])
    return result["text"], result["detail"]


def _too_slow(kind: str, limits: Limits) -> Skip:
    return Skip(f"{kind} takes more than {limits.reader_timeout_s} s to read: refused")


def child_main(argv: list[str]) -> None:
    """The child's side: cap its own memory and time, read stdin, write the result (or why not) to stdout."""
    kind, limits = argv[0], Limits(**json.loads(argv[1]))
    resource.setrlimit(resource.RLIMIT_AS, (limits.max_reader_memory_bytes, limits.max_reader_memory_bytes))
    # Its own deadline too: a worker killed at its hard time limit no longer waits for it.
    signal.alarm(limits.reader_timeout_s)
    try:
        data = sys.stdin.buffer.read()
        text, detail = read_pdf(data) if kind == "PDF" else read_docx(data, limits)
        output = json.dumps({"text": text, "detail": detail}, ensure_ascii=False).encode()
    except Skip as skip:
        output = json.dumps({"skip": str(skip)}, ensure_ascii=False).encode()
    except MemoryError:
        sys.exit(_OUT_OF_MEMORY)
    sys.stdout.buffer.write(output)
