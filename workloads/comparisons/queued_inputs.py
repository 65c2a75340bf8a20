"""The documents and probes a run was queued with, the only ones it reads, and the worker's refusal of a run that
lost or saw some change while it waited.

A run reads exactly what it was queued with: a document an upload added while it waited is not read (a tester's run
queued with one document read two, and its answer changed under it). A document deleted or replaced by a new version
(a new upload gives it its text: its origin changes), or a probe deleted or edited, while the run waited would leave
it measuring something other than what was asked: with its only document gone, a run "succeeded" on nothing. So such a
run fails when it starts, before any device time is spent, saying which ones went or changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from workloads.documents.extraction.datatypes import shorten

_SHOWN = 3  # names or questions listed in a refusal; the rest are counted
_QUESTION_SHOWN = 80
_LISTED = 100  # names or questions the run page lists; a portfolio's rest is counted


class Refused(Exception):
    """The run cannot compare what it was queued to compare; the message says why, for the user."""


def record(workload) -> dict:
    """What a run queued now is queued with: {"documents": [[pk, name, origin]], "probes": [[pk, question, answer,
    kind]]}."""
    return {"documents": [list(row) for row in workload.documents.order_by("pk").values_list("pk", "name",
                                                                                               "origin_id")],
            "probes": [list(row) for row in workload.probes.order_by("pk").values_list("pk", "question", "answer",
                                                                                         "kind")]}


def read(run) -> tuple[list, list]:
    """The run's Document and Probe rows, as they are now, of those it was queued with (the workload's all, for a run
    queued before runs kept them)."""
    documents, probes = run.workload.documents.all(), run.workload.probes.all()
    if run.queued_with is not None:
        documents = documents.filter(pk__in=[row[0] for row in run.queued_with["documents"]])
        probes = probes.filter(pk__in=[row[0] for row in run.queued_with["probes"]])
    return list(documents), list(probes)


def listed(run) -> dict | None:
    """What the run page lists: {"documents": names, "probes": questions, "more_documents", "more_probes"} of what the
    run was queued with, the first _LISTED of each; None for a run queued before runs kept them."""
    if run.queued_with is None:
        return None
    documents, probes = [row[1] for row in run.queued_with["documents"]], [row[1] for row in run.queued_with["probes"]]
    return {"documents": documents[:_LISTED], "more_documents": max(len(documents) - _LISTED, 0),
            "probes": probes[:_LISTED], "more_probes": max(len(probes) - _LISTED, 0),
            "n_documents": len(documents), "n_probes": len(probes)}


def check(run, documents: Sequence, probes: Sequence) -> None:
    """Raise Refused unless the run can start on these documents and probes (`read`'s, at its start)."""
    queued = run.queued_with or {"documents": [], "probes": []}  # None: queued before runs kept it
    now_documents = {d.pk: [d.pk, d.name, d.origin_id] for d in documents}
    now_probes = {p.pk: [p.pk, p.question, p.answer, p.kind] for p in probes}
    reasons = [_gone(queued["documents"], now_documents, "document", str),
               _changed(queued["documents"], now_documents, "document", "replaced by a new version", str),
               _gone(queued["probes"], now_probes, "probe", _quoted),
               _changed(queued["probes"], now_probes, "probe", "edited", _quoted)]
    if not documents:
        reasons.append("the workload has no documents left")
    if not probes:
        reasons.append("the workload has no probes left")
    reasons = [reason for reason in reasons if reason]
    if reasons:
        raise Refused(f"not started: {'; '.join(reasons)}. Start the comparison again to compare the workload as it "
                      "is now")


def _quoted(question: str) -> str:
    return f'"{shorten(question, _QUESTION_SHOWN)}"'


def _gone(queued: list, present: dict[int, list], noun: str, shown) -> str | None:
    """"2 documents it was queued with were deleted while it waited (a.txt, b.txt)", or None."""
    return _said([row[1] for row in queued if row[0] not in present], noun, "deleted", shown)


def _changed(queued: list, present: dict[int, list], noun: str, how: str, shown) -> str | None:
    """"1 probe it was queued with was edited while it waited ("..."), or None. Rows recorded before runs kept more
    than the pk and a label are compared on those."""
    return _said([row[1] for row in queued if row[0] in present and present[row[0]][:len(row)] != row], noun, how,
                 shown)


def _said(labels: list[str], noun: str, how: str, shown) -> str | None:
    if not labels:
        return None
    listed = ", ".join(shown(label) for label in labels[:_SHOWN])
    more = f" and {len(labels) - _SHOWN:,} more" if len(labels) > _SHOWN else ""
    verb = "was" if len(labels) == 1 else "were"
    return f"{len(labels):,} {noun}{'' if len(labels) == 1 else 's'} it was queued with {verb} {how} while it " \
           f"waited ({listed}{more})"
