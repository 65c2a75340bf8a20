"""Retrieval makes one call per probe, over the chunks its search found; routed makes one or two, as many more as
it escalated; the report carries the retrieval recall, the escalations and the searches' own seconds."""

import pytest

from engine.strategies import compare as cmp
from engine.strategies import prompts
from engine.strategies.chunking import split_documents
from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion
from engine.strategies.retrieval import Index, recall

pytestmark = pytest.mark.model

DOCS = [
    DocumentText("notes.txt", "The storage room is on the second floor.\n\nDeliveries arrive on Tuesdays.\n\n" * 4),
    DocumentText("memo.txt", "The monthly service fee is $4,500.\n\nInvoices are due in 30 days.\n\n" * 4),
]
PROBES = [
    ProbeQuestion("What is the monthly service fee?", "$4,500", "retrieval", source="memo.txt"),
    ProbeQuestion("When do deliveries arrive?", "Tuesdays", "retrieval", source="notes.txt"),
]


def test_retrieval_calls_once_per_probe_and_routed_once_more_per_escalation(smollm2):
    work = cmp.ComparisonWork(DOCS, PROBES, strategies=["retrieval", "routed"], chunk_tokens=32, chunk_overlap=0,
                        retrieval_chunks=2, diagnostics=False)
    report = cmp.compare(smollm2, work)
    retrieval, routed = report["strategies"]["retrieval"], report["strategies"]["routed"]

    assert retrieval["calls"] == report["order"].count("retrieval") == len(PROBES)
    index = Index(split_documents(DOCS, smollm2.tokenizer, 32, 0))
    found = [index.search(p.question, 2, 0).chunks for p in PROBES]
    assert retrieval["tokens_in"] == sum(len(prompts.retrieval_prompt(smollm2, chunks, p.question))
                                         for p, chunks in zip(PROBES, found, strict=True))
    assert [a["retrieved"] for a in retrieval["probes"]] == [
        [{"document": c.document, "part": c.index + 1} for c in chunks] for chunks in found]

    assert routed["escalated"] == sum(a["escalated"] for a in routed["probes"])
    assert routed["escalation_refused"] == 0
    assert routed["calls"] == report["order"].count("routed") == len(PROBES) + routed["escalated"]
    assert len(PROBES) <= routed["calls"] <= 2 * len(PROBES)
    assert routed["escalated_share"] == routed["escalated"] / len(PROBES)

    for s in (retrieval, routed):
        assert s["retrieval_recall"] == recall([a["retrieved_source"] for a in s["probes"]]) == 1.0
        assert 0 < s["retrieval_seconds"] < s["seconds"]
        assert s["seconds"] == pytest.approx(s["seconds_cpu"] + s["retrieval_seconds"])  # on the CPU: both priced
    assert report["settings"]["retrieval_chunks"] == 2


def test_routed_keeps_its_retrieval_answer_where_whole_documents_refuse(smollm2):
    long_doc = DocumentText("long.txt", "A long paragraph about pallets and deliveries. " * 1200)
    work = cmp.ComparisonWork([long_doc], [ProbeQuestion("What arrives?", "pallets", source="long.txt")],
                        strategies=["routed", "full_index_share"], diagnostics=False)
    report = cmp.compare(smollm2, work)
    routed = report["strategies"]["routed"]
    assert "refused" in report["strategies"]["full_index_share"] and "refused" not in routed
    assert routed["calls"] == 1 and report["order"] == ["routed"]
    assert routed["escalation_refused"] == routed["escalated"]
