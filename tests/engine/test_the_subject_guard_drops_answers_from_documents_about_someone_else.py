"""The chunked strategy's subject guard: a chunk's answer stands only where its document names what the question
names, so another customer's agreement cannot answer for this one; a name no document gives guards nothing."""

from pathlib import Path

import pytest

from engine.strategies.subject_guard import missing, names, telling_names

ROOT = Path(__file__).resolve().parents[2]
OURS = (ROOT / "samples" / "workload" / "services-agreement.txt").read_text()
THEIRS = (ROOT / "benchmarks" / "chunk_prompt_distractor" / "riverside-deli-agreement.txt").read_text()


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
