"""A quoted word in parentheses defines a term in prose (`Acme Corp. ("Acme")`), not in code: a call, an argument
or a tuple (`f("Viewer")`, `default="UTC")`, `("member", "Member")`) makes no cross-reference probe."""

from engine.core.documents import DocumentText
from engine.core.probes import generate_probes


def test_quoted_strings_in_code_make_no_term_probe():
    docs = [DocumentText("roles.py", 'ROLES = [("member", "Member")]\nzone = Field(default="UTC")\nlog("Viewer")\n'),
            DocumentText("notes.txt", "Each Member, Viewer and admin works in UTC.\n")]

    assert generate_probes(docs) == []


def test_a_parenthesised_term_in_prose_is_still_a_definition():
    docs = [DocumentText("contract.txt", 'Northwind Logistics, a carrier (the "Provider"), agrees.\n'),
            DocumentText("notes.txt", "The Provider calls on Mondays.\n")]

    assert [(p.question, p.answer) for p in generate_probes(docs)] == [
        ('Which document defines the term "Provider" that notes.txt uses?', "contract.txt")]
