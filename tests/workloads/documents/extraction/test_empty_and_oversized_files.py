from workloads.documents.extraction import Limits, extract_file

from .builders import LIMITS


def test_it_skips_an_empty_file():
    [entry] = extract_file("empty.txt", b"", LIMITS)

    assert (entry.kept, entry.detail, entry.text) == (False, "empty: no text", None)
    assert (entry.lines, entry.size_bytes) == (0, 0)


def test_it_skips_a_file_of_only_whitespace_even_as_json():
    [text] = extract_file("blank.md", b"  \r\n\t\n", LIMITS)
    [data] = extract_file("blank.json", b"\n\n", LIMITS)

    assert (text.kept, text.detail) == (False, "empty: no text")
    assert (data.kept, data.detail) == (False, "empty: no text")


def test_it_skips_a_file_over_the_size_limit_with_both_sizes():
    limits = Limits(max_file_bytes=2 * 1024 * 1024, max_archive_members=10, max_archive_bytes=10 * 1024 * 1024)

    [entry] = extract_file("huge.log", b"x" * (5 * 1024 * 1024 + 1), limits)

    assert (entry.kept, entry.detail) == (False, "too large: 5.0 MiB, limit 2.0 MiB")
    assert entry.size_bytes == 5 * 1024 * 1024 + 1


def test_it_accepts_a_file_exactly_at_the_size_limit():
    limits = Limits(max_file_bytes=10, max_archive_members=10, max_archive_bytes=100)

    [entry] = extract_file("exact.txt", b"0123456789", limits)

    assert (entry.kept, entry.text) == (True, "0123456789")
