"""Probes for real documents (issue 36). Contracts rarely say "The X is Y.", but they number their sections: generation
asks for the heading of each numbered section (the held-out licence texts gave one probe in all). Files inside an
upload are named as a person names them."""

from pathlib import Path

from engine.documents import Document, read_documents
from engine.probes import file_labels, generate_probes

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


def test_files_inside_an_upload_are_named_as_a_person_names_them():
    # Every answer on a codebase carried a "codebase.zip/" prefix; the bare file name is kept where it is unique.
    code = {
        "codebase.zip/src/app/models.py": "class Invoice:\n    pass\n",
        "codebase.zip/src/app/views.py": "def show():\n    return Invoice()\n",
        "codebase.zip/src/app/__init__.py": "", "codebase.zip/tests/__init__.py": "",
    }
    probes = generate_probes([Document(name, text) for name, text in code.items()], limit=10)
    assert [(p.question, p.answer) for p in probes] == [
        ("In which file is the class Invoice, which views.py calls, defined?", "models.py")]
    assert file_labels(list(code)) == {
        "codebase.zip/src/app/models.py": "models.py", "codebase.zip/src/app/views.py": "views.py",
        "codebase.zip/src/app/__init__.py": "src/app/__init__.py", "codebase.zip/tests/__init__.py": "tests/__init__.py"}
