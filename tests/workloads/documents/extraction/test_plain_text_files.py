from workloads.documents.extraction import Extracted, extract_file

from .builders import LIMITS


def test_it_keeps_a_text_file_with_unix_newlines_and_counts_its_lines():
    data = b"first line\r\nsecond line\rthird line\n"

    [entry] = extract_file("notes.txt", data, LIMITS)

    assert entry == Extracted(
        name="notes.txt",
        source_path=None,
        kept=True,
        detail="text",
        text="first line\nsecond line\nthird line\n",
        size_bytes=len(data),
        lines=3,
    )


def test_it_keeps_markdown_csv_and_source_files_as_they_are():
    files = {
        "README.md": b"# Shop\n\nSells *things*.",
        "prices.csv": b"item,price\nlamp,12.50\n",
        "cart.py": b"def total(items):\n    return sum(items)\n",
        "App.TSX": b"export const App = () => <div/>;\n",
    }
    for name, content in files.items():
        [entry] = extract_file(name, content, LIMITS)
        assert (entry.kept, entry.detail, entry.text) == (True, "text", content.decode()), name


def test_it_reads_names_without_an_extension_as_text():
    [makefile] = extract_file("Makefile", b"test:\n\tpytest\n", LIMITS)
    [env] = extract_file(".env.example", b"DEBUG=1\n", LIMITS)

    assert (makefile.kept, makefile.text, makefile.lines) == (True, "test:\n\tpytest\n", 2)
    assert (env.kept, env.text) == (True, "DEBUG=1\n")


def test_it_keeps_a_file_with_an_unknown_extension_when_its_content_is_text():
    [entry] = extract_file("schema.graphql", b"type Query { cart: Cart }\n", LIMITS)

    assert (entry.kept, entry.text) == (True, "type Query { cart: Cart }\n")


def test_an_rtf_document_is_skipped_with_what_to_do_not_kept_as_its_markup():
    rtf = rb"{\rtf1\ansi\deff0{\fonttbl{\f0 Times;}}\f0\fs24 Supply Agreement\par The price is 12,50.\par}"

    [entry] = extract_file("contract.rtf", rtf, LIMITS)
    # Named .txt or .doc (Word saves RTF under .doc), it is still RTF: its content says so.
    [renamed] = extract_file("contract.txt", b"\r\n" + rtf, LIMITS)
    [with_bom] = extract_file("contract.doc", b"\xef\xbb\xbf" + b" " * 100 + rtf, LIMITS)
    [macro] = extract_file("notes.md", b"{\\rtfx} is my TeX macro for rich text.\n", LIMITS)

    assert macro.kept  # not RTF: "{\rtf" and a version number starts one
    for refused in (entry, renamed, with_bom):
        assert (refused.kept, refused.detail) == (False, "RTF is not read: save it as DOCX or PDF and upload that")
