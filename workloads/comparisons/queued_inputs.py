"""The documents and probes a run was queued with, and the worker's refusal of a run that lost some while it waited.

A run reads the workload's documents and probes as they are when a worker starts it: a document replaced by a new
version is read in that version, and one an upload added meanwhile is read too. But a document or probe deleted while
the run waited would leave it measuring something other than what was asked: with its only document gone, a run
"succeeded" on nothing, with accuracy 0 and 0 units of work. So every document and probe it was queued with must
still be there when it starts, or it fails then, before any device time is spent, saying which ones went.
"""

from __future__ import annotations

from collections.abc import Sequence

from workloads.documents.extraction.datatypes import shorten

_SHOWN = 3  # names or questions listed in a refusal; the rest are counted
_QUESTION_SHOWN = 80


class Refused(Exception):
    """The run cannot compare what it was queued to compare; the message says why, for the user."""


def record(workload) -> dict:
    """What a run queued now is queued with: {"documents": [[pk, name]], "probes": [[pk, question]]}."""
    return {"documents": [list(row) for row in workload.documents.order_by("pk").values_list("pk", "name")],
            "probes": [list(row) for row in workload.probes.order_by("pk").values_list("pk", "question")]}


def check(run, documents: Sequence, probes: Sequence) -> None:
    """Raise Refused unless the run can start on these documents and probes (the workload's, read at its start)."""
    queued = run.queued_with or {"documents": [], "probes": []}  # None: queued before runs kept it
    reasons = [_gone(queued["documents"], {d.pk for d in documents}, "document", str),
               _gone(queued["probes"], {p.pk for p in probes}, "probe",
                     lambda question: f'"{shorten(question, _QUESTION_SHOWN)}"')]
    if not documents:
        reasons.append("the workload has no documents left")
    if not probes:
        reasons.append("the workload has no probes left")
    reasons = [reason for reason in reasons if reason]
    if reasons:
        raise Refused(f"not started: {'; '.join(reasons)}. Start the comparison again to compare the workload as it "
                      "is now")


def _gone(queued: list, present: set[int], noun: str, shown) -> str | None:
    """"2 documents it was queued with were deleted while it waited (a.txt, b.txt)", or None."""
    gone = [label for pk, label in queued if pk not in present]
    if not gone:
        return None
    listed = ", ".join(shown(label) for label in gone[:_SHOWN])
    more = f" and {len(gone) - _SHOWN:,} more" if len(gone) > _SHOWN else ""
    verb = "was" if len(gone) == 1 else "were"
    return f"{len(gone):,} {noun}{'' if len(gone) == 1 else 's'} it was queued with {verb} deleted while it waited " \
           f"({listed}{more})"
