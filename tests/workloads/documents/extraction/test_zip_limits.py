import io
import zipfile

from workloads.documents.extraction import Limits, extract_file

from .builders import LIMITS, make_zip, patch_first_member

MIB = 1024 * 1024


def test_it_skips_the_whole_archive_when_it_has_too_many_files():
    limits = Limits(max_file_bytes=MIB, max_archive_members=3, max_archive_bytes=MIB)
    data = make_zip({"docs/": b"", **{f"f{index}.txt": "x" for index in range(4)}})

    [entry] = extract_file("many.zip", data, limits)

    assert (entry.name, entry.kept, entry.detail) == ("many.zip", False, "too many files: 4 files, limit 3")
    assert entry.size_bytes == len(data)


def test_it_counts_files_but_not_directories_against_the_member_limit():
    limits = Limits(max_file_bytes=MIB, max_archive_members=3, max_archive_bytes=MIB)
    data = make_zip({"a/": b"", "a/b/": b"", "a/1.txt": "1", "a/2.txt": "2", "a/b/3.txt": "3"})

    assert [e.text for e in extract_file("three.zip", data, limits)] == ["1", "2", "3"]


def test_it_skips_a_zip_bomb_whose_declared_size_is_over_the_archive_limit():
    data = make_zip({"readme.txt": "hi", "zeros.txt": b"\x00" * (50 * MIB)})
    assert len(data) < MIB  # 50 MiB of zeros compresses to about 50 KiB
    limits = Limits(max_file_bytes=MIB, max_archive_members=10, max_archive_bytes=10 * MIB)

    [entry] = extract_file("bomb.zip", data, limits)

    assert (entry.name, entry.kept, entry.text) == ("bomb.zip", False, None)
    assert entry.detail == "too large once unpacked: 50.0 MiB, limit 10.0 MiB"


def test_it_never_trusts_a_header_that_understates_the_size_of_a_zip_bomb():
    data = patch_first_member(make_zip({"zeros.txt": b"\x00" * (50 * MIB), "readme.txt": "hi"}), file_size=1000)

    entries = extract_file("liar.zip", data, LIMITS)

    # zipfile stops at the declared 1000 bytes and then finds the checksum wrong: the member is damaged, the rest kept.
    assert [(e.name, e.kept, e.text) for e in entries] == [
        ("liar.zip/zeros.txt", False, None),
        ("liar.zip/readme.txt", True, "hi"),
    ]
    assert entries[0].detail.startswith("damaged inside the archive (Bad CRC-32")
    assert entries[0].size_bytes == 1000


def test_it_skips_a_member_declared_larger_than_the_file_limit_without_reading_it():
    limits = Limits(max_file_bytes=1000, max_archive_members=10, max_archive_bytes=MIB)

    entries = extract_file("big.zip", make_zip({"big.txt": "x" * 5000, "small.txt": "ok"}), limits)

    assert [(e.name, e.kept, e.detail) for e in entries] == [
        ("big.zip/big.txt", False, "too large: 4.9 KiB, limit 1000 bytes"),
        ("big.zip/small.txt", True, "text"),
    ]


class _LyingZipFile(zipfile.ZipFile):
    """Stands in for a ZIP reader that trusts lying headers: every member yields far more than it declares."""

    def open(self, name, mode="r", pwd=None, *, force_zip64=False):
        return io.BytesIO(b"A" * (2 * MIB))


def test_it_reads_members_only_up_to_one_byte_past_the_file_limit(monkeypatch):
    limits = Limits(max_file_bytes=MIB, max_archive_members=10, max_archive_bytes=100 * MIB)
    data = make_zip({"tiny.txt": "a"})
    monkeypatch.setattr(zipfile, "ZipFile", _LyingZipFile)

    [entry] = extract_file("liar.zip", data, limits)

    assert (entry.name, entry.kept) == ("liar.zip/tiny.txt", False)
    assert entry.detail == "too large once unpacked: over 1.0 MiB"


def test_it_skips_the_whole_archive_when_the_bytes_really_decompressed_pass_the_archive_limit(monkeypatch):
    limits = Limits(max_file_bytes=MIB, max_archive_members=10, max_archive_bytes=3 * MIB)
    data = make_zip({f"part{index}.txt": "a" for index in range(5)})
    monkeypatch.setattr(zipfile, "ZipFile", _LyingZipFile)

    [entry] = extract_file("liar.zip", data, limits)

    assert (entry.name, entry.kept, entry.text) == ("liar.zip", False, None)
    assert entry.detail == "too large once unpacked: over 3.0 MiB (the archive's headers understate it)"


def test_it_skips_a_zip_upload_over_the_file_limit_before_opening_it():
    limits = Limits(max_file_bytes=100, max_archive_members=10, max_archive_bytes=MIB)
    data = make_zip({"a.txt": "a" * 500}, compression=zipfile.ZIP_STORED)

    [entry] = extract_file("upload.zip", data, limits)

    assert (entry.name, entry.kept) == ("upload.zip", False)
    assert entry.detail == f"too large: {len(data)} bytes, limit 100 bytes"
