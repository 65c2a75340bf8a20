import io
import re

import docx

from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_docx, make_zip, with_part


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


DECLARATION = b"<?xml version='1.0' encoding='UTF-8' standalone='yes'?>\n"


def test_it_refuses_an_undefined_entity_naming_the_part_and_the_entity():
    data = with_part(make_docx(["Price: 12.50 net"]), "word/document.xml",
                     lambda xml: xml.replace(b"Price: 12.50", b"Price:&nbsp;12.50"))

    [entry] = extract_file("converted.docx", data, LIMITS)

    assert not entry.kept
    assert re.fullmatch(r"corrupt DOCX: word/document\.xml is not well-formed XML: "
                        r"undefined entity &nbsp; at line 2, column \d+", entry.detail), entry.detail


def test_it_names_the_part_that_is_not_well_formed_when_it_is_not_the_document():
    data = with_part(make_docx(["Hello"]), "word/styles.xml", lambda xml: xml.replace(b"</w:styles>", b""))

    [entry] = extract_file("broken.docx", data, LIMITS)

    assert not entry.kept
    assert entry.detail.startswith("corrupt DOCX: word/styles.xml is not well-formed XML: "), entry.detail


def test_it_refuses_entities_declared_in_a_dtd_instead_of_dropping_their_text():
    # python-docx keeps such an entity as a node of its own, and a run's text stops at it: this file used to be
    # kept as "Price:", "12.50 net" lost without a word.
    def declared(xml: bytes) -> bytes:
        assert xml.startswith(DECLARATION)
        body = xml[len(DECLARATION):].replace(b"Price: 12.50", b"Price:&nbsp;12.50")
        return DECLARATION + b'<!DOCTYPE w:document [<!ENTITY nbsp "&#160;">]>\n' + body

    [entry] = extract_file("converted.docx", with_part(make_docx(["Price: 12.50 net"]), "word/document.xml",
                                                       declared), LIMITS)

    assert (entry.kept, entry.text) == (False, None)
    assert entry.detail == ("corrupt DOCX: word/document.xml uses the entity &nbsp; (line 3), declared in a DTD, "
                            "which Word documents may not contain")


def test_it_keeps_the_text_of_predefined_entities_and_character_references():
    data = with_part(make_docx(["Price: 12.50 net"]), "word/document.xml",
                     lambda xml: xml.replace(b"Price: 12.50", b"Price &amp; terms &lt;&#160;12.50"))

    [entry] = extract_file("escaped.docx", data, LIMITS)

    assert (entry.kept, entry.text) == (True, "Price & terms <\u00a012.50 net")
