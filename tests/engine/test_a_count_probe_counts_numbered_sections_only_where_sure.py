"""A count probe (issue 39) asks how many numbered sections a document has, only where the count is sure: its
headings are numbered 0 or 1 to N in order, without a gap, repeat or sub-number, and no other line opens with a
number. Its passage is the headings. The held-out GPL-3.0 gets none: a wrapped line there opens with "7."."""

from pathlib import Path

import pytest

from engine.core.documents import DocumentText, read_documents
from engine.core.probes import PASSAGE_JOIN, generate_probes

ROOT = Path(__file__).resolve().parents[2] / "samples"
SECTIONS = "1. Scope\nWe carry goods.\n\n2. Fees\nThe fee is due monthly.\n\n3. Term\nOne year.\n"


def _counts(text: str) -> dict[str, str]:
    return {p.question: p.answer for p in generate_probes([DocumentText("msa.txt", text)], limit=50)
            if p.kind == "count"}


def test_numbered_sections_are_counted_with_their_headings_as_passage():
    probe = next(p for p in generate_probes([DocumentText("msa.txt", SECTIONS)], limit=50) if p.kind == "count")
    assert (probe.question, probe.answer, probe.source) == ("How many numbered sections does msa.txt have?", "3",
                                                            "msa.txt")
    assert probe.passage.split(PASSAGE_JOIN) == ["1. Scope", "2. Fees", "3. Term"]


def test_sections_numbered_from_zero_count_section_zero():
    assert _counts("0. Definitions\n\n" + SECTIONS) == {"How many numbered sections does msa.txt have?": "4"}


@pytest.mark.parametrize("text", [
    SECTIONS.replace("3. Term", "4. Term"),  # a gap
    SECTIONS + "\n3. Term again\n",  # a repeat
    SECTIONS + "\n3.1 Renewal\n",  # a sub-number
    SECTIONS + "\n4. the supplier shall deliver every order on time.\n",  # a line no heading
    "1. Scope\n\n2. Fees\n",  # too few to ask
])
def test_no_count_where_it_is_not_sure(text):
    assert _counts(text) == {}


def test_the_samples_count_what_a_reader_counts():
    asked = {p.question: p.answer for p in generate_probes(
        read_documents(sorted([*ROOT.glob("workload/*.txt"), *ROOT.glob("contracts/*.txt")])), limit=200)
        if p.kind == "count"}
    assert asked == {"How many numbered sections does services-agreement.txt have?": "6",
                     "How many numbered sections does pricing-addendum.txt have?": "6",
                     "How many numbered sections does apache-2.0.txt have?": "9"}
