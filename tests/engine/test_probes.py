"""Probes load from JSON Lines with errors that point at the line, save atomically,
score by whole-word match, and are generated with answers that stand in the text."""

from pathlib import Path

import pytest

from engine.core.documents import DocumentText, read_documents
from engine.core.errors import EngineError
from engine.core.probes import (
    ABSENT_ANSWER,
    KINDS,
    ProbeQuestion,
    generate_probes,
    is_correct,
    load_probes,
    normalise,
    save_probes,
)

WORKLOAD = Path(__file__).resolve().parents[2] / "samples" / "workload"


@pytest.fixture(scope="module")
def workload_docs():
    return read_documents(sorted(WORKLOAD.glob("*.txt")))


def _jsonl(tmp_path, *lines):
    path = tmp_path / "probes.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- loading ---------------------------------------------------------------------------


def test_it_loads_probes_skipping_blank_lines(tmp_path):
    path = _jsonl(
        tmp_path,
        '{"question": "What is the fee?", "answer": "$4,500", "kind": "retrieval"}',
        "",
        '{"question": "Who signs?", "answer": "Dana Reyes"}',
    )
    assert load_probes(path) == [
        ProbeQuestion("What is the fee?", "$4,500", "retrieval"),
        ProbeQuestion("Who signs?", "Dana Reyes", "user"),
    ]


def test_the_sample_workload_probes_load_and_are_answered_by_their_sources(workload_docs):
    texts = {doc.name: doc.text for doc in workload_docs}
    probes = load_probes(WORKLOAD / "probes.jsonl")
    assert 8 <= len(probes) <= 10
    assert {probe.kind for probe in probes} == {"retrieval", "cross_reference", "multi_hop"}
    for probe in probes:
        sources = probe.source.split(" + ")
        if probe.kind == "cross_reference":
            assert probe.answer in texts
        else:
            assert probe.answer in texts[sources[-1]]


@pytest.mark.parametrize(
    "line,message",
    [
        ('{"question": "Q?", "answer": ', "line 3 is not valid JSON"),
        ('["Q?", "A"]', "line 3 is not a JSON object"),
        ('{"answer": "A"}', 'line 3 has no "question"'),
        ('{"question": "Q?", "answer": 4500}', 'line 3: "answer" must be a string, not int'),
        ('{"question": "  ", "answer": "A"}', 'line 3: "question" is empty'),
        ('{"question": "Q?", "answer": "A", "kind": "trivia"}', "line 3 has unknown kind 'trivia'"),
        ('{"question": "Q?", "answer": "A", "kidn": "retrieval"}', "line 3 has unknown field 'kidn'"),
    ],
)
def test_it_rejects_a_bad_line_naming_its_number(tmp_path, line, message):
    path = _jsonl(tmp_path, '{"question": "Q?", "answer": "A"}', "", line)
    with pytest.raises(EngineError, match=f"probes.jsonl: {message}"):
        load_probes(path)


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_it_rejects_a_file_without_probes(tmp_path, content):
    path = tmp_path / "probes.jsonl"
    path.write_text(content)
    with pytest.raises(EngineError, match="probes.jsonl holds no probes"):
        load_probes(path)


def test_it_rejects_a_missing_file(tmp_path):
    with pytest.raises(EngineError, match="absent.jsonl does not exist"):
        load_probes(tmp_path / "absent.jsonl")


def test_it_rejects_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "probes.jsonl"
    path.write_bytes('{"question": "Café?", "answer": "A"}'.encode("latin-1"))
    with pytest.raises(EngineError, match="probes.jsonl is not valid UTF-8"):
        load_probes(path)


# --- saving ----------------------------------------------------------------------------


def test_saved_probes_load_back_unchanged(tmp_path):
    probes = [
        ProbeQuestion("Wie hoch ist die Gebühr?", "4.500 €", "retrieval", "vertrag.txt"),
        ProbeQuestion('Which file defines "Delivery Window"?', "services-agreement.txt", "cross_reference"),
        ProbeQuestion("Which line?\u2028The next one.", "hi"),
    ]
    path = tmp_path / "probes.jsonl"
    save_probes(probes, path)
    assert load_probes(path) == probes
    assert path.read_text(encoding="utf-8").count("\n") == 3


def test_saving_replaces_the_old_file_and_leaves_no_temporary_file(tmp_path):
    path = _jsonl(tmp_path, '{"question": "Old?", "answer": "old"}')
    save_probes([ProbeQuestion("New?", "new")], path)
    assert load_probes(path) == [ProbeQuestion("New?", "new")]
    assert [p.name for p in tmp_path.iterdir()] == ["probes.jsonl"]


def test_a_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    path = _jsonl(tmp_path, '{"question": "Old?", "answer": "old"}')

    def disk_full(source, target):
        raise OSError("No space left on device")

    monkeypatch.setattr("engine.core.jsonfile.os.replace", disk_full)
    with pytest.raises(EngineError, match="cannot write .*probes.jsonl: No space left"):
        save_probes([ProbeQuestion("New?", "new")], path)
    assert load_probes(path) == [ProbeQuestion("Old?", "old")]
    assert [p.name for p in tmp_path.iterdir()] == ["probes.jsonl"]


# --- scoring ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,folded",
    [
        ("The fee is $4,500.", "the fee is 4500"),
        ("1,250,000 units", "1250000 units"),
        ("3.5 percent.", "3.5 percent"),
        ("Ｏｒｄｅｒ HL-20931!", "order hl 20931"),
        ("  Dana\tReyes's  ", "dana reyes s"),
    ],
)
def test_it_normalises_case_numbers_and_punctuation(text, folded):
    assert normalise(text) == folded


@pytest.mark.parametrize(
    "output,expected,correct",
    [
        ("The code is 4817.", "4817", True),
        ("The code is 48170.", "4817", False),
        ("Code 14817", "4817", False),
        ("The monthly fee is 4500 dollars.", "$4,500", True),
        ("The monthly fee is $4,500.", "4500", True),
        ("the account manager is DANA REYES", "Dana Reyes", True),
        ("Dana Reyesford", "Dana Reyes", False),
        ("The surcharge is 3.5 percent", "3.5", True),
        ("The surcharge is 3.55 percent", "3.5", False),
        ("The surcharge is 3.5 percent", "3", False),
        ("See services-agreement.txt, clause 3.", "services-agreement.txt", True),
        ("anything at all", "?!", False),
    ],
)
def test_an_answer_is_correct_only_as_whole_words(output, expected, correct):
    assert is_correct(output, expected) is correct


# --- generating ------------------------------------------------------------------------


def test_generated_probes_on_the_sample_workload_cover_every_kind(workload_docs):
    probes = generate_probes(workload_docs)
    counts = {kind: sum(probe.kind == kind for probe in probes) for kind in KINDS}
    assert counts["retrieval"] >= 3 and counts["cross_reference"] >= 1 and counts["multi_hop"] >= 1
    assert len(probes) <= 30
    assert len({probe.question for probe in probes}) == len(probes)


def test_every_generated_answer_stands_verbatim_in_its_source(workload_docs):
    texts = {doc.name: doc.text for doc in workload_docs}
    for probe in generate_probes(workload_docs, limit=60):
        sources = probe.source.split(" + ")
        assert all(source in texts for source in sources)
        if probe.question.startswith("Which document defines"):
            # The answer is the defining document, and the term is defined there.
            term = probe.question.split('"')[1]
            assert probe.answer == sources[0] and f'"{term}"' in texts[probe.answer]
        elif probe.kind == "absent":
            # Nothing to find: the answer is a refusal.
            assert probe.answer == ABSENT_ANSWER
        elif probe.kind == "count":
            # As many as the passage's headings, each in the document.
            assert probe.answer == str(len(probe.passage.split(" … ")))
        else:
            assert probe.answer in texts[sources[-1]]


def test_it_generates_a_multi_hop_probe_through_a_name(workload_docs):
    probes = generate_probes(workload_docs)
    assert ProbeQuestion(
        "What is the phone extension of the account manager of Northwind Logistics?",
        "4412",
        "multi_hop",
        "services-agreement.txt + support-transcript-0412.txt",
    ) in probes


@pytest.mark.parametrize(
    "second_fact", ["José Álvarez's mobile number is 555-0100.", "The mobile number of José Álvarez is 555-0100."]
)
def test_it_links_a_name_to_a_fact_about_that_name_in_another_document(second_fact):
    docs = [
        DocumentText("contract.txt", "The site supervisor of the Swan Island depot is José Álvarez."),
        DocumentText("directory.txt", f"Staff contacts are listed below.\n{second_fact}\n"),
    ]
    multi_hop = [probe for probe in generate_probes(docs) if probe.kind == "multi_hop"]
    assert multi_hop == [
        ProbeQuestion(
            "What is the mobile number of the site supervisor of the Swan Island depot?",
            "555-0100",
            "multi_hop",
            "contract.txt + directory.txt",
        )
    ]


def test_it_skips_a_subject_stated_with_two_different_values():
    docs = [
        DocumentText("a.txt", "The monthly fee is $4,500. The notice period is 45 days."),
        DocumentText("b.txt", "The monthly fee is $5,000."),
    ]
    assert [probe.question for probe in generate_probes(docs)] == ["What is the notice period?"]


def test_it_does_not_take_a_predicate_for_a_value():
    docs = [DocumentText("a.txt", "The invoice is due within 30 days. The invoice number is INV-7.")]
    assert [(p.question, p.answer) for p in generate_probes(docs)] == [("What is the invoice number?", "INV-7")]


def test_a_note_mark_is_not_part_of_the_answer():
    # As the DOCX reader writes a footnote's mark: "crate[1]" folded to "crate 1" marked a right answer wrong.
    docs = [DocumentText("prices.docx", "The price is 12.50 EUR per crate[1]. The delivery day is Monday[E2].")]

    assert [(p.question, p.answer) for p in generate_probes(docs)] == [
        ("What is the price?", "12.50 EUR per crate"), ("What is the delivery day?", "Monday")]
    assert is_correct("It costs 12.50 EUR per crate.", "12.50 EUR per crate")


def test_characters_no_reader_sees_are_not_part_of_the_answer():
    # A soft hyphen from hyphenation and a zero-width space from a web page: the probe form refuses both.
    docs = [DocumentText("terms.txt", "The account manager is Dana Rey\u00adnolds. The depot code is DX\u200b-40.")]

    assert [(p.question, p.answer) for p in generate_probes(docs)] == [
        ("What is the account manager?", "Dana Reynolds"), ("What is the depot code?", "DX-40")]


def test_multi_hop_answers_are_cleaned_too_and_tabs_read_as_spaces():
    docs = [DocumentText("crm.txt", "The account manager of Northwind is Dana Reyes. The fee is EUR\t500."),
            DocumentText("hr.txt", "Dana Reyes's employer is Glo\u00adbex Corp[2].")]

    answers = {p.question: p.answer for p in generate_probes(docs)}

    assert answers["What is the employer of the account manager of Northwind?"] == "Globex Corp"
    assert answers["What is the fee?"] == "EUR 500"


def test_it_finds_a_function_defined_in_one_file_and_called_in_another(tmp_path):
    # Ledger is imported but never called, so it makes no probe.
    billing = "def parse_invoice(text):\n    return text.split()\n\n\nclass Ledger:\n    pass\n"
    (tmp_path / "billing.py").write_text(billing)
    (tmp_path / "app.py").write_text("from billing import Ledger, parse_invoice\n\nrows = parse_invoice(raw)\n")
    probes = generate_probes(read_documents([tmp_path / "billing.py", tmp_path / "app.py"]))
    assert [p for p in probes if p.kind == "cross_reference"] == [
        ProbeQuestion(
            "In which file is the function parse_invoice, which app.py calls, defined?",
            "billing.py",
            "cross_reference",
            "billing.py",
        )
    ]


def test_it_rejects_a_limit_below_one(workload_docs):
    with pytest.raises(EngineError, match="the number of probes to generate must be at least 1, got 0"):
        generate_probes(workload_docs, limit=0)
