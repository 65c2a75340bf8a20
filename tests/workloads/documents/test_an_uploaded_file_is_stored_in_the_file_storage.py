"""An uploaded file's original bytes go to the file storage, whether Django spooled the file to disk (then it is
moved, not copied) or kept it in memory, under a name of the storage's own, and are read back as they were sent."""

import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile, TemporaryUploadedFile

from workloads.documents import upload_storage
from workloads.documents.intake import store_upload
from workloads.models import Upload, UploadFile

DATA = bytes(range(256)) * 2**13 + b"the end\n"  # 2 MiB and a bit


def _spooled(name: str, data: bytes) -> TemporaryUploadedFile:
    spooled = TemporaryUploadedFile(name, "text/plain", len(data), None)
    spooled.write(data)
    spooled.seek(0)
    return spooled


def test_it_stores_each_file_in_the_storage_and_reads_it_back(workload, alice, settings):
    spooled = _spooled("spooled.txt", DATA)
    upload = store_upload(workload, alice, [SimpleUploadedFile("kept-in-memory.txt", DATA), spooled])
    spooled.close()  # as the request does once answered: the temporary file was moved away
    for stored in upload.files.all():
        path = settings.MEDIA_ROOT / stored.original.name
        assert path.is_file() and path.parent == settings.MEDIA_ROOT / "uploads" / str(upload.pk), stored.name
        assert stored.size_bytes == len(DATA) and stored.purged_at is None
        assert upload_storage.read_file(stored) == DATA
    assert [f.name for f in upload.files.all()] == ["kept-in-memory.txt", "spooled.txt"]


def test_a_spooled_file_is_moved_into_the_storage_not_copied(workload, alice, settings):
    spooled = _spooled("big.txt", DATA)
    inode = os.stat(spooled.temporary_file_path()).st_ino
    settings.FILE_UPLOAD_TEMP_DIR = None  # the test's tmp folders share one filesystem
    stored = store_upload(workload, alice, [spooled]).files.get()
    if os.stat(settings.MEDIA_ROOT).st_dev != os.stat(os.path.dirname(spooled.temporary_file_path())).st_dev:
        pytest.skip("the temporary folder is on another filesystem: the storage has to copy")
    assert os.stat(settings.MEDIA_ROOT / stored.original.name).st_ino == inode
    assert not os.path.exists(spooled.temporary_file_path())
    spooled.close()


class _BrokenFile(SimpleUploadedFile):
    def chunks(self, chunk_size=None):
        yield b"half of it"
        raise OSError("the client went away")


def test_a_failure_half_way_leaves_no_row_and_no_bytes(workload, alice, settings):
    with pytest.raises(OSError):
        store_upload(workload, alice, [SimpleUploadedFile("first.txt", DATA), _BrokenFile("second.txt", DATA)])
    assert not Upload.objects.exists() and not UploadFile.objects.exists()
    assert not any(path.is_file() for path in settings.MEDIA_ROOT.rglob("*"))
