import codecs

from workloads.documents.extraction import extract_file

from .builders import LIMITS

FRENCH = (
    "Le contrat de bail est signé à Genève. Les frais s’élèvent à 1200 €, payables d’avance. "
    "Le propriétaire accepte.\n"
) * 4


def test_it_detects_cp1252_and_reports_the_encoding():
    [entry] = extract_file("bail.txt", FRENCH.encode("cp1252"), LIMITS)

    assert (entry.kept, entry.detail, entry.text) == (True, "text (cp1252)", FRENCH)


def test_it_decodes_utf16_with_a_byte_order_mark_in_either_byte_order():
    for bom, codec in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        [entry] = extract_file("export.csv", bom + "name,city\r\nZoë,Zürich\r\n".encode(codec), LIMITS)
        assert (entry.kept, entry.detail, entry.text) == (True, "text (UTF-16)", "name,city\nZoë,Zürich\n")


def test_it_strips_the_utf8_byte_order_mark_and_does_not_report_utf8():
    [entry] = extract_file("notes.md", codecs.BOM_UTF8 + "Café\n".encode(), LIMITS)

    assert (entry.detail, entry.text) == ("text", "Café\n")


def test_it_removes_nul_characters_found_after_the_binary_check():
    [entry] = extract_file("app.log", b"a" * 9000 + b"\x00tail\n", LIMITS)

    assert entry.kept and entry.text == "a" * 9000 + "tail\n"


def test_it_skips_a_png_as_an_unsupported_binary_file():
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00"
    [entry] = extract_file("logo.png", png, LIMITS)

    assert (entry.kept, entry.detail, entry.text, entry.lines) == (False, "unsupported file type .png", None, 0)
    assert entry.size_bytes == len(png)


def test_it_skips_binary_content_behind_a_text_extension():
    [entry] = extract_file("data.txt", b"\x00\x01\x02\x03binary", LIMITS)

    assert (entry.kept, entry.detail) == (False, "binary file")


def test_it_skips_bytes_that_no_text_encoding_explains():
    [entry] = extract_file("dump.txt", bytes(range(1, 256)) * 10, LIMITS)

    assert (entry.kept, entry.detail) == (False, "binary file or unknown text encoding")


def test_it_reads_utf16_without_a_byte_order_mark_and_still_skips_binary_files():
    text = "Delivery contract: price 12.50 EUR per crate.\nZoë, Zürich\n"
    for codec in ("utf-16-le", "utf-16-be"):
        [entry] = extract_file("export.txt", text.encode(codec), LIMITS)
        assert (entry.kept, entry.detail, entry.text) == (True, "text (UTF-16)", text)
    # A control character or two, as text has them: DOS's end-of-file mark, Word's vertical tab.
    for short in ("Hello world\r\n\x1a", "Line one\x0bline two"):
        [entry] = extract_file("short.txt", short.encode("utf-16-le"), LIMITS)
        assert (entry.kept, entry.detail) == (True, "text (UTF-16)")

    [binary] = extract_file("data.txt", bytes(range(256)) * 8, LIMITS)
    assert (binary.kept, binary.detail) == (False, "binary file")

    # Small 16-bit numbers (a sensor log, audio samples) have text's NUL pattern but decode to control characters.
    samples = b"".join(n.to_bytes(2, "little") for n in [*range(1, 256)] * 8)
    [numbers] = extract_file("samples.txt", samples, LIMITS)
    assert (numbers.kept, numbers.detail) == (False, "binary file")
