"""Probes for real documents (issue 36). Contracts rarely say "The X is Y.", but they number their sections: generation
asks for the heading of each numbered section (the held-out licence texts gave one probe in all). Files inside an
upload are named as a person names them. Python files ask what their code states (engine.core.code_probes)."""

from collections import Counter
from pathlib import Path

import environ

from engine.core.documents import DocumentText, read_documents
from engine.core.probes import file_labels, generate_probes

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
    asked = {p.question: p.answer for p in generate_probes([DocumentText("msa.txt", text)], limit=50)}
    assert asked == {"What is the heading of section 1 of msa.txt?": "Scope"}


def test_files_inside_an_upload_are_named_as_a_person_names_them():
    # Every answer on a codebase carried a "codebase.zip/" prefix; the bare file name is kept where it is unique.
    code = {
        "codebase.zip/src/app/models.py": "class Invoice:\n    pass\n",
        "codebase.zip/src/app/views.py": "def show():\n    return Invoice()\n",
        "codebase.zip/src/app/__init__.py": "", "codebase.zip/tests/__init__.py": "",
    }
    probes = generate_probes([DocumentText(name, text) for name, text in code.items()], limit=10)
    assert [(p.question, p.answer) for p in probes] == [
        ("In which file is the class Invoice, which views.py calls, defined?", "models.py")]
    assert file_labels(list(code)) == {
        "codebase.zip/src/app/models.py": "models.py", "codebase.zip/src/app/views.py": "views.py",
        "codebase.zip/src/app/__init__.py": "src/app/__init__.py",
        "codebase.zip/tests/__init__.py": "tests/__init__.py"}


MODULE = '''"""Billing."""
from decimal import Decimal
from .errors import BillingError as Failure
from typing import *

GRACE_DAYS = 30
CURRENCY: str = "EUR"
DEBUG = True
LIMIT = 1_000
RETRIES = 2
RETRIES = 3


class Invoice:
    def total(self, rate: Decimal) -> Decimal:
        if rate < 0:
            raise Failure("negative rate")
        return rate

    def path(self) -> "Invoice":
        raise ValueError("a") if self else TypeError("b")

    def _hidden(self, x) -> int:
        return 1


def settle(invoice, *, late=False) -> None:
    def inner():
        raise KeyError("only inside")
    try:
        inner()
    except KeyError:
        raise
'''


def test_a_python_file_asks_what_its_code_states_in_several_shapes():
    asked = {p.question: p.answer for p in generate_probes([DocumentText("repo.zip/billing.py", MODULE)], limit=50)}
    assert asked == {
        "What type does the method Invoice.total in billing.py return?": "Decimal",
        "What type does the method Invoice.path in billing.py return?": "Invoice",  # a forward reference, unquoted
        "What is GRACE_DAYS set to in billing.py?": "30",
        "What is CURRENCY set to in billing.py?": "EUR",
        # DEBUG is a boolean, LIMIT has underscores no answer repeats, RETRIES is set twice: none asks anything.
        "Which exception does the method Invoice.total in billing.py raise?": "Failure",
        # path raises two kinds; settle only re-raises and its inner function's raise is not its own.
        "From which module does billing.py import Decimal?": "decimal",
        "From which module does billing.py import BillingError?": ".errors",
        "What is the first parameter of the method Invoice.total in billing.py?": "rate",
        "What is the first parameter of the function settle in billing.py?": "invoice",
    }


def test_code_that_does_not_parse_asks_nothing_of_its_own():
    assert generate_probes([DocumentText("broken.py", "def f(:\n    return 1\n")], limit=10) == []


def test_a_real_library_gets_probes_of_every_shape_each_resting_on_its_source():
    # django-environ, a dependency of this project, read as an uploaded ZIP would be.
    root = Path(environ.__file__).parent
    docs = [DocumentText(f"environ.zip/{p.relative_to(root.parent)}", p.read_text())
            for p in sorted(root.rglob("*.py"))]
    probes = generate_probes(docs)
    asked = {p.question: p.answer for p in probes}
    shapes = {p.question.split(" ")[0] + " " + p.question.split(" ")[1] for p in probes}
    assert len(probes) >= 20 and {"What type", "Which exception", "From which", "In which"} <= shapes
    assert asked["What type does the method Env.bool in environ.py return?"] == "bool"
    assert asked["Which exception does the method Env.str in environ.py raise?"] == "ImproperlyConfigured"
    assert asked["From which module does fileaware_mapping.py import MutableMapping?"] == "collections.abc"
    for p in probes:  # a code fact's answer is in its source; a file's name is where its passage comes from
        assert p.answer and (p.answer in p.passage if p.kind == "retrieval" else p.answer in p.source)
    # No answer carries more than a tenth of the set: every file's "typing" imports once, not twenty times.
    assert max(Counter(p.answer for p in probes).values()) <= 3
