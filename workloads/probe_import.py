"""Probes imported in bulk from a JSON Lines or CSV file, on the workload page and through the API.

Each line is checked by the rules one probe added by hand obeys (the API's ProbeIn, itself built on
workloads.rules), every bad line is named with why, and nothing is saved unless every line is good: a file of 300
probes with one typo is fixed and sent again, not half imported.
"""

from __future__ import annotations

import csv
import io
import json

from django.db import transaction
from pydantic import ValidationError

from workloads.api.schemas import ProbeIn
from workloads.models import Probe, Workload

MAX_BYTES = 2 * 2**20  # a thousand probes of a long question each
MAX_PROBES = 1000  # each probe is a model call per strategy: more is days of work on a CPU
MAX_ERRORS = 20  # named one by one; past that, the count


class ProbeImportError(ValueError):
    def __init__(self, errors: list[str]):
        shown = errors[:MAX_ERRORS] + ([f"and {len(errors) - MAX_ERRORS} more"] if len(errors) > MAX_ERRORS else [])
        super().__init__("nothing was imported: " + "; ".join(shown))
        self.errors = shown


def import_probes(workload: Workload, user, name: str, data: bytes) -> list[Probe]:
    """Every probe in the file, saved together; ProbeImportError names each bad line and saves none."""
    probes, errors = [], []
    for line, record in _records(name, data):
        if isinstance(record, _Bad):
            errors.append(f"line {line}: {record}")
        elif not isinstance(record, dict):
            errors.append(f'line {line}: not an object: write {{"question": ..., "answer": ...}}')
        else:
            try:
                probes.append(ProbeIn(**record))
            except ValidationError as exc:
                errors.append(f"line {line}: " + "; ".join(_said(e) for e in exc.errors()))
    if errors:
        raise ProbeImportError(errors)
    if len(probes) > MAX_PROBES:
        raise ProbeImportError([f"{len(probes):,} probes is more than the {MAX_PROBES:,} one file may hold"])
    with transaction.atomic():
        return Probe.objects.bulk_create(Probe(workload=workload, created_by=user, **p.dict()) for p in probes)


class _Bad(str):
    """A line that could not be read, as what was wrong with it."""


def _said(error: dict) -> str:
    where = ".".join(str(part) for part in error["loc"])
    return f"{where}: {error['msg']}" if where else error["msg"]


def _records(name: str, data: bytes) -> list[tuple[int, object]]:
    if not data.strip():
        raise ProbeImportError([f"{name} is empty"])
    if len(data) > MAX_BYTES:
        raise ProbeImportError([f"{name} is larger than the {MAX_BYTES:,} bytes a probe file may be"])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ProbeImportError([f"{name} is not UTF-8 text"]) from None
    return _csv(text) if name.lower().endswith(".csv") else _json_lines(text)


def _json_lines(text: str) -> list[tuple[int, object]]:
    records = []
    # Not splitlines(): it also breaks at U+2028 and friends, which JSON strings may hold.
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            try:
                records.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                records.append((number, _Bad(f"not valid JSON ({exc.msg})")))
    return records


def _csv(text: str) -> list[tuple[int, object]]:
    """A header row naming the columns (question and answer; kind and source if wanted), then a probe a row."""
    reader = csv.DictReader(io.StringIO(text, newline=""))
    columns = reader.fieldnames or []
    missing = [c for c in ("question", "answer") if c not in columns]
    if missing:
        found = ", ".join(columns) or "none"
        said = f"the first row must name the columns: no {' or '.join(missing)} column (found {found})"
        raise ProbeImportError([said])
    records = []
    try:
        for row in reader:
            if None in row:  # DictReader keeps the values past the header's columns under None
                records.append((reader.line_num, _Bad("more values than the first row names columns")))
            elif any(value.strip() for value in row.values() if value):
                # An empty optional cell is left out, as a JSON line would leave the field out.
                records.append((reader.line_num, {k: v for k, v in row.items()
                                                  if v or k in ("question", "answer")}))
    except csv.Error as exc:
        raise ProbeImportError([f"line {reader.line_num}: {exc}"]) from None
    return records
