"""Real contracts rarely say "The X is Y.", but they number their sections: generation asks for the heading of each
numbered section (issue 36: the held-out licence texts gave no probe at all)."""

from pathlib import Path

from engine.documents import Document, read_documents
from engine.probes import generate_probes

CONTRACTS = Path(__file__).resolve().parents[2] / "samples" / "contracts"


def test_the_held_out_licences_give_a_probe_per_numbered_section():
    probes = [p for p in generate_probes(read_documents(sorted(CONTRACTS.glob("*.txt"))), limit=200)
              if p.question.startswith("What is the heading of section")]
    asked = {p.question: p.answer for p in probes}
    # Apache-2.0 numbers sections 1-9, GPL-3.0 sections 0-17: every one is asked, each by its own document.
    assert len(probes) == 9 + 18
    assert asked["What is the heading of section 2 of apache-2.0.txt?"] == "Grant of Copyright License"
    assert asked["What is the heading of section 3 of gpl-3.0.txt?"] == (
        "Protecting Users' Legal Rights From Anti-Circumvention Law")
    assert asked["What is the heading of section 7 of gpl-3.0.txt?"] == "Additional Terms"
    for p in probes:
        assert p.kind == "retrieval" and p.answer in p.passage and p.passage.split(".")[0].strip().isdigit()


def test_a_number_that_opens_two_headings_and_a_numbered_sentence_ask_nothing():
    text = ("1. Scope\nThe services are described below.\n\n2. Fees\nFees are due monthly.\n\n2. Fees again\n\n"
            "3. The supplier shall deliver every order within the agreed window of days.\n")
    asked = {p.question: p.answer for p in generate_probes([Document("msa.txt", text)], limit=50)}
    assert asked == {"What is the heading of section 1 of msa.txt?": "Scope"}
