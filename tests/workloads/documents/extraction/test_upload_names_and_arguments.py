import pytest

from workloads.documents.extraction import Limits, extract_file

from .builders import LIMITS


def test_it_reduces_a_malicious_upload_name_to_its_base_name():
    for supplied, expected in (
        ("../../evil.txt", "evil.txt"),
        ("a\\b\\c.txt", "c.txt"),
        ("C:\\Users\\ana\\notes.txt", "notes.txt"),
        ("/etc/passwd", "passwd"),
        ("..", "unnamed"),
        ("dir/", "unnamed"),
    ):
        [entry] = extract_file(supplied, b"hello", LIMITS)
        assert (entry.name, entry.source_path, entry.text) == (expected, None, "hello"), supplied


def test_it_raises_value_error_when_called_with_something_other_than_bytes():
    with pytest.raises(ValueError, match="data must be bytes"):
        extract_file("notes.txt", "not bytes", LIMITS)


def test_it_raises_value_error_for_limits_that_are_not_positive():
    with pytest.raises(ValueError, match="max_file_bytes"):
        Limits(max_file_bytes=0, max_archive_members=1, max_archive_bytes=1)
