"""An absent probe (issue 39) asks for what no document states, modelled on a fact that one does: an attribute a fact
gives one party or person, asked of another of the same sort. Its expected answer is a refusal, which the scorer
takes in the model's own words. A document that states it, names the attribute near the other name, leaves it to
an elliptical "<other>'s is", or states it of someone unnamed ("your billing contact") stops the probe."""

import pytest

from engine.core.documents import DocumentText
from engine.core.probes import ABSENT_ANSWER, generate_probes, is_correct

MSA = """MASTER SERVICES AGREEMENT

This Agreement is made between Acme Foods, a grocer in Salem (the "Customer"), and Blue Harbor Freight, a carrier \
of chilled goods (the "Carrier").

1. Depot manager

The depot manager of Blue Harbor Freight is Lena Ortiz.
"""
RATES = "RATES\n\nThe billing contact of Acme Foods is Omar Haddad.\n\nOmar Haddad's desk number is 12-B.\n"
ASKED = {
    "What is the depot manager of Acme Foods?": "The depot manager of Blue Harbor Freight is Lena Ortiz.",
    "What is the billing contact of Blue Harbor Freight?": "The billing contact of Acme Foods is Omar Haddad.",
    "What is the desk number of Lena Ortiz?": "Omar Haddad's desk number is 12-B.",
}


def _absent(*extra: str) -> dict[str, str]:
    docs = [DocumentText("msa.txt", MSA), DocumentText("rates.txt", RATES),
            *(DocumentText(f"extra{n}.txt", text) for n, text in enumerate(extra))]
    return {p.question: p.passage for p in generate_probes(docs, limit=100) if p.kind == "absent"}


def test_an_attribute_of_one_party_or_contact_is_asked_of_another_with_the_fact_it_comes_from():
    # A party's attribute is not asked of a person, nor the other way round.
    assert _absent() == ASKED


def test_its_answer_is_a_refusal_in_any_wording():
    probe = next(p for p in generate_probes([DocumentText("msa.txt", MSA), DocumentText("rates.txt", RATES)],
                                            limit=100) if p.kind == "absent")
    assert probe.answer == ABSENT_ANSWER and probe.source in ("msa.txt", "rates.txt")
    assert is_correct("The text does not say.", probe.answer) and is_correct("NONE", probe.answer)
    assert not is_correct("Lena Ortiz", probe.answer)


@pytest.mark.parametrize("extra", [
    "The depot manager of Acme Foods is Ivo Brandt.",  # stated
    "Acme Foods's depot manager is Ivo Brandt.",  # stated the other way
    "The depot manager of Blue Harbor Freight also serves the Customer.",  # beside its term
    "Blue Harbor Freight lends Acme its depot manager.",  # beside a word of its name
    "Depot managers at Blue Harbor Freight and Acme answer the phone.",  # in the plural
    "Questions go to your depot manager.",  # whose? A sentence that names no one may mean anyone
    "Acme Foods has one manager: Ivo Brandt.",  # in other words
    "The depot manager of Blue Harbor Freight is Lena Ortiz; Acme Foods's is Ivo Brandt.",  # elliptical
])
def test_any_sentence_that_could_give_it_stops_it(extra):
    assert "What is the depot manager of Acme Foods?" not in _absent(extra)


def test_a_section_heading_that_names_the_attribute_does_not():
    assert "What is the depot manager of Acme Foods?" in _absent("1. Depot manager\n\n2. Fees\n")


def test_absent_probes_are_at_most_a_third_of_a_set():
    probes = generate_probes([DocumentText("msa.txt", MSA), DocumentText("rates.txt", RATES)], limit=100)
    assert 0 < sum(p.kind == "absent" for p in probes) <= len(probes) / 3
