"""A cross-reference probe never names another document for a term that the asking document defines itself, by
whatever phrasing: the LGPL-2.1 / MPL-2.0 case, where "License" was said to be defined by MPL-2.0 alone."""

import pytest

from engine.core.documents import DocumentText
from engine.core.probes import generate_probes

# MPL-2.0's phrasing, which the generator has always read as a definition.
MPL = DocumentText("MPL-2.0.txt", '1.5. "Covered Software" means Source Code Form to which the initial Contributor has '
                              'attached the notice in Exhibit A.\n\n1.9. "License" means this document.\n')


@pytest.mark.parametrize("definition", [
    # LGPL-2.1's own words.
    'This agreement applies to any software library (also called "this License").',
    '"The License" refers to this Lesser General Public License.',
    '"License" refers to this Lesser General Public License, version 2.1.',
    'The "License", below, refers to this Lesser General Public License.',
    '"License" is defined as this Lesser General Public License.',
    '"License" has the meaning given in the preamble.',
    '"License" for this library means this Lesser General Public License.',
    "'License' means this Lesser General Public License.",
    '‘License’ means this Lesser General Public License.',
    '"License": this Lesser General Public License.',
    'License: means this Lesser General Public License.',
])
def test_it_does_not_name_another_document_for_a_term_the_asking_document_defines(definition):
    lgpl = DocumentText("LGPL-2.1.txt", f"{definition}\n\nYou may copy the Library under the terms of this License, "
                                    "and link it with Covered Software.\n")

    probes = generate_probes([lgpl, MPL])

    cross_references = {p.question: p.answer for p in probes if p.kind == "cross_reference"}
    # Both documents define "License", so neither can be named as the one that does.
    assert not [question for question in cross_references if '"License"' in question]
    # A term only MPL-2.0 defines is still asked about.
    assert cross_references == {
        'Which document defines the term "Covered Software" that LGPL-2.1.txt uses?': "MPL-2.0.txt"}


def test_it_does_not_name_another_file_for_a_function_the_calling_file_defines_itself():
    # billing.rs defines parse in a way the generator does not look for, and calls it: billing.py is not its definer.
    docs = [DocumentText("billing.py", "def parse(text):\n    return text.split()\n"),
            DocumentText("billing.rs", "fn parse(text: &str) -> Vec<&str> {\n    text.split(' ').collect()\n}\n\n"
                                   "let rows = parse(raw);\n")]

    assert [p for p in generate_probes(docs) if p.kind == "cross_reference"] == []


def test_a_term_used_only_inside_a_longer_term_is_not_asked_about():
    # LGPL-3 writes "Combined Work", its own term, and never Apache-2.0's "Work" on its own.
    docs = [DocumentText("Apache-2.0.txt", '"Work" shall mean the work of authorship.\n'),
            DocumentText("LGPL-3.txt", 'A "Combined Work" is a work produced by combining.\n\nYou may convey a '
                                       "Combined Work under terms of your choice.\n"),
            DocumentText("NOTICE.txt", "This product includes the Work of the Apache Software Foundation.\n")]

    assert [(p.question, p.answer) for p in generate_probes(docs) if p.kind == "cross_reference"] == [
        ('Which document defines the term "Work" that NOTICE.txt uses?', "Apache-2.0.txt")]
