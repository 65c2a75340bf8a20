"""A file over the size limit is refused with sizes that are true: in bytes when rounding would show them equal."""

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from workloads.documents.intake import validate_files


def _refusal(size: int) -> str:
    with pytest.raises(ValidationError) as refused:
        validate_files([SimpleUploadedFile("big.txt", b"x" * size)])
    return refused.value.message


@override_settings(UPLOAD_MAX_FILE_BYTES=2**20)
def test_it_gives_both_sizes_in_bytes_for_a_file_one_byte_over_the_limit():
    assert _refusal(2**20 + 1) == (
        "big.txt is 1,048,577 bytes, more than the limit of 1,048,576 bytes (1.0 MiB) per file")


@override_settings(UPLOAD_MAX_FILE_BYTES=2**20)
def test_it_gives_rounded_sizes_when_they_show_the_difference():
    assert _refusal(3 * 2**19) == "big.txt is 1.5 MiB, more than the limit of 1.0 MiB per file"


@override_settings(UPLOAD_MAX_FILE_BYTES=2**20)
def test_it_accepts_a_file_exactly_at_the_limit():
    validate_files([SimpleUploadedFile("exact.txt", b"x" * 2**20)])
