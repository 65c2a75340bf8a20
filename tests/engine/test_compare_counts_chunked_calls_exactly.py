"""The chunked strategy's accounting: every chunk, plus the question each time, plus the reduce."""

import pytest

from engine.strategies import compare as cmp
from engine.strategies import prompts
from engine.strategies.chunking import split_documents
from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion

pytestmark = pytest.mark.model

DOCS = [
    DocumentText("notes.txt", "The storage room is on the second floor.\n\nDeliveries arrive on Tuesdays.\n\n" * 6),
    DocumentText("memo.txt", "The monthly service fee is $4,500.\n\nInvoices are due in 30 days.\n\n" * 6),
]
PROBES = [
    ProbeQuestion("What is the monthly service fee?", "$4,500", "retrieval"),
    ProbeQuestion("When do deliveries arrive?", "Tuesdays", "retrieval"),
]


def test_tokens_and_calls_add_up_per_chunk_and_reduce(smollm2):
    work = cmp.ComparisonWork(DOCS, PROBES, strategies=["chunked"], chunk_tokens=64, chunk_overlap=8)
    report = cmp.compare(smollm2, work)
    chunked = report["strategies"]["chunked"]
    chunks = split_documents(DOCS, smollm2.tokenizer, 64, 8)
    assert report["chunks"] == len(chunks) > 2
    assert chunked["calls"] == len(PROBES) * (len(chunks) + 1)
    expected_in = 0
    for probe, answer in zip(PROBES, chunked["probes"], strict=True):
        maps = [prompts.chunk_prompt(smollm2, c, probe.question) for c in chunks]
        assert all(probe.question in smollm2.tokenizer.decode(p) for p in maps)
        expected_in += sum(map(len, maps)) + len(
            prompts.reduce_prompt(smollm2, probe.question, answer["chunk_answers"])
        )
    assert chunked["tokens_in"] == expected_in
    assert 0 < chunked["tokens_out"] <= chunked["calls"] * cmp.ANSWER_TOKENS
    assert chunked["seconds"] > 0 and chunked["flops"]["total"] > 0 and chunked["flops"]["indexer"] == 0


def test_progress_reports_every_planned_call(smollm2):
    seen = []
    work = cmp.ComparisonWork(DOCS[:1], PROBES[:1], strategies=["chunked", "full_dense"], chunk_tokens=64,
                              chunk_overlap=0)
    report = cmp.compare(smollm2, work, progress=lambda done, planned, msg: seen.append((done, planned)))
    calls = sum(s["calls"] for s in report["strategies"].values())
    assert seen == [(i, calls) for i in range(calls)]
