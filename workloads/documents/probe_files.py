"""Telling a file of probes from a document, before an upload stores it: a probes.jsonl uploaded as a document put
its expected answers in the text every strategy reads."""

from __future__ import annotations

import csv
import json


def looks_like_probes(name: str, head: bytes) -> bool:
    """Whether a file about to be stored as a document reads as probes: a .jsonl, .json or .csv file whose first line
    is an object, or a header row, with a question and an answer. Stored as a document, its expected answers would be
    in the text every strategy reads."""
    if not name.lower().endswith((".jsonl", ".json", ".csv")):
        return False
    first = head.decode("utf-8-sig", errors="replace").lstrip().split("\n", 1)[0]
    if name.lower().endswith(".csv"):
        return {"question", "answer"} <= {cell.strip().lower() for cell in next(csv.reader([first]), [])}
    try:
        record = json.loads(first)
    except json.JSONDecodeError:
        return False
    return isinstance(record, dict) and {"question", "answer"} <= set(record)
