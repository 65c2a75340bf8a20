"""The chunked strategy's subject guard: a chunk's answer stands only where its document names what the question
names, so another customer's agreement cannot answer for this one, unless no document that names it answers; a name
no document gives guards nothing."""

from pathlib import Path

import pytest

from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion
from engine.strategies.chunking import Chunk
from engine.strategies.compare import guarded_map
from engine.strategies.run_plan import PlannedCall
from engine.strategies.subject_guard import missing, names, telling_names
from engine.strategies.work import ComparisonWork

ROOT = Path(__file__).resolve().parents[2]
OURS = (ROOT / "samples" / "workload" / "services-agreement.txt").read_text()
THEIRS = (ROOT / "benchmarks" / "chunk_prompt_distractor" / "riverside-deli-agreement.txt").read_text()
QUESTION = "What monthly service fee does Harbor Lane Bakery pay Northwind?"


@pytest.mark.parametrize("question, expected", [
    ("What monthly service fee does Harbor Lane Bakery pay Northwind?", ["Harbor Lane Bakery", "Northwind"]),
    ("Who is Harbor Lane Bakery's account manager at Northwind?", ["Harbor Lane Bakery", "Northwind"]),
    # A sentence's first word is not a name, in the second sentence too; punctuation ends a name.
    ("The support chat mentions the Delivery Window. In which file is that term defined?", ["Delivery Window"]),
    ("Which truck lost cooling on the bakery route? Give its number.", []),
    ("Who prepared the incident report: which Northwind team?", ["Northwind"]),
    ("what is the fee?", []),
    ("", []),
])
def test_the_names_of_a_question(question, expected):
    assert names(question) == expected


def test_an_answer_from_another_customers_agreement_is_dropped_and_ours_stands():
    question = "What monthly service fee does Harbor Lane Bakery pay Northwind?"
    telling = telling_names(question, [OURS, THEIRS])
    assert telling == ["Harbor Lane Bakery", "Northwind"]
    assert missing(THEIRS, telling) == ["Harbor Lane Bakery"]  # it names Northwind, not the bakery
    assert missing(OURS, telling) == []


def test_a_name_no_document_gives_tells_nothing_and_drops_nothing():
    question = "What fee does Contoso pay Northwind?"
    telling = telling_names(question, [OURS, THEIRS])
    assert telling == ["Northwind"]
    assert missing(OURS, telling) == missing(THEIRS, telling) == []


def test_names_match_whole_words_across_line_breaks_and_case():
    assert missing("harbor lane\nBAKERY pays $5", ["Harbor Lane Bakery"]) == []
    assert missing("Harbor Laneway Bakery", ["Harbor Lane Bakery"]) == ["Harbor Lane Bakery"]
    # A name is a literal string, never a pattern.
    assert missing("A+B Ltd", ["A+B Ltd"]) == [] and missing("AAB Ltd", ["A+B Ltd"]) == ["A+B Ltd"]


def _map(answers: dict[str, str], question: str) -> tuple[list[str], list[dict]]:
    """The chunked strategy's guarded map over one chunk of each agreement, each answering as `answers` says."""
    documents = [DocumentText("ours.txt", OURS), DocumentText("theirs.txt", THEIRS)]
    maps = [PlannedCall("dense", 10, d.name, chunk=Chunk(d.name, 0, d.text, 10, 0)) for d in documents]
    work = ComparisonWork(documents=documents, probes=[ProbeQuestion(question, "x")])
    return guarded_map(lambda j, call: answers[call.chunk.document], work, work.probes[0], maps)


def test_the_reduce_reads_our_agreements_answer_and_not_theirs():
    found, dropped = _map({"ours.txt": "$4,500", "theirs.txt": "$3,800"}, QUESTION)
    assert found == ["$4,500"]
    assert dropped == [{"chunk": "=== theirs.txt (part 1) ===", "answer": "$3,800",
                        "document_lacks": ["Harbor Lane Bakery"]}]


def test_where_the_guard_would_drop_every_answer_it_gives_way():
    """A join's answer may stand only in a document that does not name the question's subject."""
    found, dropped = _map({"ours.txt": "NONE", "theirs.txt": "$3,800"}, QUESTION)
    assert found == ["$3,800"]
    assert [d["answer"] for d in dropped] == ["$3,800"]
    assert _map({"ours.txt": "NONE", "theirs.txt": "NONE"}, QUESTION) == ([], [])
