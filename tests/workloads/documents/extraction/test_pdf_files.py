import pytest

from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_pdf, make_pdf_choices, make_pdf_fields, make_pdf_form


def test_it_keeps_the_text_of_every_page_separated_by_a_blank_line():
    data = make_pdf("Lease agreement\nRent: 900 EUR", "Signed in Lyon")

    [entry] = extract_file("lease.pdf", data, LIMITS)

    assert (entry.kept, entry.detail) == (True, "PDF, 2 pages")
    assert entry.text == "Lease agreement\nRent: 900 EUR\n\nSigned in Lyon"
    assert (entry.lines, entry.size_bytes) == (4, len(data))


@pytest.mark.parametrize("drawn", [True, False], ids=["with its appearance", "drawn by the reader"])
def test_it_reads_the_values_of_a_filled_in_form(drawn):
    # The value is drawn by the field's widget, not the page: pdfium's page text alone said "Party:".
    [entry] = extract_file("order.pdf", make_pdf_form("Party:", "Acme Ltd", drawn), LIMITS)

    assert (entry.kept, entry.text) == (True, "Party:\nAcme Ltd")
    assert entry.detail == "PDF, 1 page, its form's text fields read"


def test_it_reads_each_fields_value_after_its_label():
    # Flattened, every value came at the end of the page, and the values of one line ran together.
    data = make_pdf_fields([("Customer name:", "Mueller GmbH"), ("Crates per week:", "120"), ("Notes:", "Back door")])

    [entry] = extract_file("order.pdf", data, LIMITS)

    assert entry.text == "Customer name:\nMueller GmbH\nCrates per week:\n120\nNotes:\nBack door"


def test_it_reads_check_boxes_and_radio_buttons_beside_their_labels():
    # Flattened, a ticked box read as "✔" on a line of its own and an empty one as nothing.
    data = make_pdf_choices([("Insured", True), ("Uninsured", False)], ["Monthly", "Quarterly"], chosen="Quarterly")

    [entry] = extract_file("order.pdf", data, LIMITS)

    assert (entry.kept, entry.text) == (True, "[x] Insured\n[ ] Uninsured\n( ) Monthly\n(x) Quarterly")
    assert entry.detail == "PDF, 1 page, its check boxes and radio buttons read as [x] or [ ]"


def test_it_skips_a_pdf_without_a_text_layer_as_a_probable_scan():
    [entry] = extract_file("scan.pdf", make_pdf("", ""), LIMITS)

    assert (entry.kept, entry.detail, entry.text) == (False, "PDF has no text layer (scanned image?)", None)


def test_it_skips_a_corrupt_pdf_with_the_reason():
    [entry] = extract_file("broken.pdf", b"%PDF-1.7\nthis is not a pdf body", LIMITS)

    assert (entry.kept, entry.detail) == (False, "corrupt PDF: Data format error")


def test_it_skips_a_password_protected_pdf():
    [entry] = extract_file("secret.pdf", make_pdf("Salary list", user_password="hunter2"), LIMITS)

    assert (entry.kept, entry.detail) == (False, "PDF is password-protected")


def test_words_hyphenated_at_a_lines_end_read_whole():
    # pdfium joins a line ending in "-" and leaves \x02 where the hyphen was: it read "uninter\x02rupted".
    data = make_pdf("Deliveries are uninter-\nrupted and long-\nterm, Mid-\nYear, 2020-\n2021.")

    [entry] = extract_file("terms.pdf", data, LIMITS)

    assert entry.text == "Deliveries are uninterrupted and longterm, Mid-Year, 2020-\n2021."
