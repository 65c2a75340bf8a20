"""Documents are read as normalised text; every unusable file is refused by name."""

import pytest

from engine.core.documents import MAX_DOCUMENT_BYTES, DocumentText, read_documents
from engine.core.errors import EngineError

PNG_HEADER = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"


def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_it_reads_documents_in_order_under_their_file_names(tmp_path):
    first = _write(tmp_path, "contract.txt", "The fee is $4,500.\n")
    second = _write(tmp_path, "notes.md", "Café opens at seven.")
    assert read_documents([first, str(second)]) == [
        DocumentText("contract.txt", "The fee is $4,500.\n"),
        DocumentText("notes.md", "Café opens at seven."),
    ]


def test_it_normalises_newlines_and_drops_a_byte_order_mark(tmp_path):
    path = _write(tmp_path, "windows.txt", b"\xef\xbb\xbfline one\r\nline two\rline three\n")
    assert read_documents([path])[0].text == "line one\nline two\nline three\n"


def test_it_rejects_no_paths():
    with pytest.raises(EngineError, match="no documents given"):
        read_documents([])


def test_it_rejects_a_missing_file(tmp_path):
    with pytest.raises(EngineError, match=r"absent\.txt does not exist"):
        read_documents([tmp_path / "absent.txt"])


def test_it_rejects_a_folder(tmp_path):
    with pytest.raises(EngineError, match="is not a regular file"):
        read_documents([tmp_path])


@pytest.mark.parametrize("content", ["", "  \n\n\t \n"])
def test_it_rejects_an_empty_or_blank_file(tmp_path, content):
    path = _write(tmp_path, "blank.txt", content)
    with pytest.raises(EngineError, match=r"blank\.txt is empty"):
        read_documents([path])


@pytest.mark.parametrize(
    "content",
    [PNG_HEADER + b"rest of an image", b"text with a \x00 NUL byte", "Café".encode("latin-1")],
    ids=["png", "nul byte", "latin-1"],
)
def test_it_rejects_a_binary_file(tmp_path, content):
    path = _write(tmp_path, "scan.txt", content)
    with pytest.raises(EngineError, match=r"scan\.txt looks binary, not text"):
        read_documents([path])


def test_it_rejects_a_file_over_the_size_limit(tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as handle:
        handle.truncate(MAX_DOCUMENT_BYTES + 1)  # sparse: no 20 MiB actually written
    with pytest.raises(EngineError, match=r"huge\.txt is 20\.0 MiB, larger than the 20 MiB limit"):
        read_documents([path])


def test_it_rejects_two_documents_with_the_same_name(tmp_path):
    (tmp_path / "march").mkdir()
    (tmp_path / "april").mkdir()
    a = _write(tmp_path / "march", "report.txt", "One.")
    b = _write(tmp_path / "april", "report.txt", "Two.")
    with pytest.raises(EngineError, match=r"two documents are both named report\.txt"):
        read_documents([a, b])
