"""The documents a run read, kept with it, and what changed in them between two runs.

A workload's documents change between quarters (contracts added, a new version replacing an old one, a codebase
sent again), and with them its costs: "cost +18%" means little until it says the documents grew by 20%. So a run
keeps each document's name, tokens and a digest of its text, and the dashboard and the PDF summary say what
changed beside the other context (device, versions, prices)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

SHOWN_NAMES = 3  # names listed per kind of change; the rest are counted


def snapshot(documents: Iterable) -> list[dict]:
    """[{"name", "tokens", "sha256"}] of Document rows, as a run keeps them."""
    return [{"name": d.name, "tokens": d.tokens, "sha256": hashlib.sha256(d.text.encode()).hexdigest()}
            for d in documents]


def described(documents: list[dict] | None) -> str:
    """"4 documents, 2,013 tokens"; "not recorded" for runs from before runs kept their documents."""
    if documents is None:
        return "not recorded"
    return f"{_counted(len(documents), 'document')}, {_counted(sum(d['tokens'] for d in documents), 'token')}"


def change(before: list[dict] | None, now: list[dict] | None) -> str | None:
    """What changed between two runs' documents, as "documents: 1 added (annex.txt), 1 changed (terms.txt);
    2,013 → 2,400 tokens"; None when nothing did, or when a run did not record them."""
    if before is None or now is None:
        return None
    old = {d["name"]: d for d in before}
    new = {d["name"]: d for d in now}
    kinds = [("added", [name for name in new if name not in old]),
             ("changed", [name for name in new if name in old and new[name]["sha256"] != old[name]["sha256"]]),
             ("removed", [name for name in old if name not in new])]
    parts = [f"{len(names)} {kind} ({_names(names)})" for kind, names in kinds if names]
    if not parts:
        return None
    tokens = f"{sum(d['tokens'] for d in before):,} → {sum(d['tokens'] for d in now):,} tokens"
    return f"documents: {', '.join(parts)}; {tokens}"


def run_change(before, now) -> str | None:
    """What changed in the documents between two ComparisonRuns; where one kept no list (runs from before runs
    kept them, or finished by an older worker), that this is not known: saying nothing would read as unchanged."""
    if unlisted := next((run for run in (before, now) if run.documents is None), None):
        return f"documents: not known, run {unlisted.pk} kept no list of its documents"
    return change(before.documents, now.documents)


def _counted(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _names(names: list[str]) -> str:
    shown = ", ".join(sorted(names)[:SHOWN_NAMES])
    return shown if len(names) <= SHOWN_NAMES else f"{shown} and {len(names) - SHOWN_NAMES:,} more"
