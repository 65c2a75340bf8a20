import io

import docx

from workloads.extraction import extract_file

from .builders import LIMITS, make_docx, make_zip


def test_it_keeps_paragraphs_and_table_rows_in_document_order():
    data = make_docx(["Offer for ACME", "Prices below."], table=[["Item", "Price"], ["Lamp", "12.50"]])

    [entry] = extract_file("offer.docx", data, LIMITS)

    assert (entry.kept, entry.detail) == (True, "DOCX, 2 paragraphs, 1 table")
    assert entry.text == "Offer for ACME\nPrices below.\nItem | Price\nLamp | 12.50"
    assert entry.lines == 4


def test_it_shows_a_merged_table_cell_once():
    document = docx.Document()
    table = document.add_table(rows=1, cols=3)
    merged = table.rows[0].cells[0].merge(table.rows[0].cells[1])
    merged.text = "Total"
    table.rows[0].cells[2].text = "42"
    buffer = io.BytesIO()
    document.save(buffer)

    [entry] = extract_file("sum.docx", buffer.getvalue(), LIMITS)

    assert (entry.detail, entry.text) == ("DOCX, 0 paragraphs, 1 table", "Total | 42")


def test_it_skips_a_docx_that_is_not_a_zip_package():
    [entry] = extract_file("old.docx", b"\xd0\xcf\x11\xe0 an old binary .doc renamed", LIMITS)

    assert (entry.kept, entry.detail) == (False, "corrupt DOCX: not a Word .docx file")


def test_it_skips_a_zip_that_is_not_a_word_document():
    [entry] = extract_file("fake.docx", make_zip({"hello.txt": "hi"}), LIMITS)

    assert not entry.kept
    assert entry.detail.startswith("corrupt DOCX: ")


def test_it_skips_a_docx_with_only_empty_paragraphs():
    [entry] = extract_file("blank.docx", make_docx(["", "   "]), LIMITS)

    assert (entry.kept, entry.detail) == (False, "empty: no text")
