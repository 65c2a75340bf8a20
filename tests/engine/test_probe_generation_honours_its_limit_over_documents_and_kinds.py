"""Generation yields up to the number asked for (30 by default), spread round-robin over the documents within
each kind, the kinds interleaved: a small set still asks about every document and every kind."""

import pytest

from engine.core.documents import DocumentText
from engine.core.errors import EngineError
from engine.core.probes import generate_probes

SUBJECTS = ("fee", "deposit", "rate", "notice period", "depot code", "route number", "delivery day", "pallet count",
            "invoice number", "cut-off time", "grace period", "weight limit")


def _facts(prefix: str) -> DocumentText:
    return DocumentText(f"{prefix}.txt", " ".join(f"The {prefix} {subject} is {prefix.upper()}-{n}."
                                              for n, subject in enumerate(SUBJECTS)))


@pytest.fixture
def docs():
    terms = DocumentText("terms.txt", "".join(f'"{term}" means a thing.\n\n' for term in
                                          ("Service Credit", "Delivery Window", "Cold Chain", "Route Sheet")))
    people = DocumentText("people.txt", "The account manager of Northwind is Dana Reyes.\n")
    directory = DocumentText("directory.txt", "Dana Reyes's phone extension is 4412.\n"
                                          "Use the Service Credit, Delivery Window, Cold Chain and Route Sheet.\n")
    return [_facts("alpha"), _facts("beta"), _facts("gamma"), terms, people, directory]


def test_it_yields_thirty_probes_by_default_and_any_number_asked_for(docs):
    assert len(generate_probes(docs)) == 30
    assert len(generate_probes(docs, limit=1)) == 1
    # Every probe the documents hold: 36 facts and one about the account manager, four terms, one multi-hop.
    assert len(generate_probes(docs, limit=200)) == 42


def test_a_small_set_asks_about_every_kind_and_every_document(docs):
    probes = generate_probes(docs, limit=7)

    # Kinds in turn, until the one multi-hop is spent and the cross-references (all answered "terms.txt") have
    # their share of seven: two.
    assert [p.kind for p in probes] == ["retrieval", "cross_reference", "multi_hop", "retrieval", "cross_reference",
                                        "retrieval", "retrieval"]
    assert [p.source for p in probes if p.kind == "retrieval"] == ["alpha.txt", "beta.txt", "gamma.txt",
                                                                   "people.txt"]


def test_it_rejects_a_limit_below_one(docs):
    with pytest.raises(EngineError, match="the number of probes to generate must be at least 1, got 0"):
        generate_probes(docs, limit=0)
