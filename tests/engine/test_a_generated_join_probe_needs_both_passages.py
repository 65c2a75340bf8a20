"""A generated join (issue 39) rests on two sentences and needs both: a party named by a defined term and a fact
about it under its other name, in one document or across two; or a name a fact gives and a fact about that name, in
two paragraphs of one document. Drop either sentence and the probe is no longer generated; the first alone never
holds the answer. Joins inside one document are cross-references, across documents multi-hops."""

import pytest

from engine.core.documents import DocumentText
from engine.core.probes import PASSAGE_JOIN, generate_probes, normalise

MSA = """MASTER SERVICES AGREEMENT

This Agreement is made between Acme Foods, a grocer in Salem, Oregon (the "Customer"), and Blue Harbor Freight, a \
carrier of chilled goods (the "Carrier").

1. Contacts

The depot manager of Blue Harbor Freight is Lena Ortiz.

The escalation phone of the Carrier is 555-0199.

2. People

Lena Ortiz's radio call sign is BH-7.
"""
RATES = "RATES\n\nThe billing contact of Acme Foods is Omar Haddad.\n"
# Facts with answers of their own, so that a join is not left out for sharing its answer with a lookup.
FILLER = DocumentText("filler.txt", " ".join(f"The {thing} is X-{n}." for n, thing in enumerate(
    ("fee", "rate", "deposit", "route number", "depot code", "pallet count"))))

JOINS = {
    'What is the depot manager of the party that msa.txt calls the "Carrier"?':
        ("Lena Ortiz", "cross_reference", "msa.txt"),
    "What is the escalation phone of Blue Harbor Freight?": ("555-0199", "cross_reference", "msa.txt"),
    "What is the radio call sign of the depot manager of Blue Harbor Freight?": ("BH-7", "cross_reference", "msa.txt"),
    'What is the billing contact of the party that msa.txt calls the "Customer"?':
        ("Omar Haddad", "multi_hop", "msa.txt + rates.txt"),
}


def _docs(msa: str = MSA, rates: str = RATES) -> list[DocumentText]:
    return [DocumentText("msa.txt", msa), DocumentText("rates.txt", rates)]


def _joins(docs: list[DocumentText]) -> dict[str, tuple[str, str, str]]:
    return {p.question: (p.answer, p.kind, p.source) for p in generate_probes(docs, limit=100)
            if p.kind in ("cross_reference", "multi_hop") and not p.question.startswith("Which document")}


def test_it_joins_a_party_to_its_term_and_a_name_to_a_fact_about_it():
    assert _joins(_docs()) == JOINS


@pytest.mark.parametrize("question", JOINS)
def test_dropping_either_sentence_leaves_the_join_unasked(question):
    probe = next(p for p in generate_probes(_docs(), limit=100) if p.question == question)
    sentences = probe.passage.split(PASSAGE_JOIN)
    assert len(sentences) == 2 and normalise(probe.answer) not in normalise(sentences[0])
    for sentence in sentences:
        assert MSA.count(sentence) + RATES.count(sentence) == 1
        without = _docs(MSA.replace(sentence, ""), RATES.replace(sentence, ""))
        assert question not in _joins(without)


def test_two_facts_in_one_paragraph_are_one_passage_not_a_join():
    text = "The depot manager of Blue Harbor Freight is Lena Ortiz. Lena Ortiz's radio call sign is BH-7.\n"
    assert _joins([DocumentText("msa.txt", text), FILLER]) == {}


@pytest.mark.parametrize("definition", [
    'Made by Acme Foods, a grocer, and Blue Harbor Freight, a carrier (the "Carrier").',  # the term is both's
    'Made by Acme Foods and Blue Harbor Freight (the "Carrier").',
    'Made by Blue Harbor Freight, a carrier (the "Carrier").\n\n"Carrier" means any haulier.',  # defined twice
])
def test_a_term_for_two_parties_or_defined_twice_names_none(definition):
    text = definition + "\n\nThe depot manager of Blue Harbor Freight is Lena Ortiz.\n"
    assert _joins([DocumentText("msa.txt", text), FILLER]) == {}


def test_a_term_after_another_partys_term_names_its_own_party():
    text = ('Made by Acme Foods (the "Customer"), and Blue Harbor Freight (the "Carrier").\n\n'
            "The depot manager of Blue Harbor Freight is Lena Ortiz.\n")
    assert _joins([DocumentText("msa.txt", text), FILLER]) == {
        'What is the depot manager of the party that msa.txt calls the "Carrier"?':
            ("Lena Ortiz", "cross_reference", "msa.txt")}


def test_a_party_asked_under_its_term_agrees_with_every_statement_under_it():
    # rates.txt gives "the Carrier" another depot manager: which is right cannot be told, so neither is asked.
    rates = RATES + "\nThe depot manager of the Carrier is Ivo Brandt.\n"
    assert 'What is the depot manager of the party that msa.txt calls the "Carrier"?' not in _joins(_docs(rates=rates))
