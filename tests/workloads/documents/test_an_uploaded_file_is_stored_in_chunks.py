"""An uploaded file's bytes are stored in chunks of at most CHUNK_BYTES, in order, whether Django spooled the file to
disk or kept it in memory, and read back as they were sent."""

from django.core.files.uploadedfile import SimpleUploadedFile, TemporaryUploadedFile

from workloads.documents.intake import store_upload
from workloads.documents.upload_storage import CHUNK_BYTES, read_file

DATA = bytes(range(256)) * (CHUNK_BYTES // 256) * 2 + b"the end\n"  # two chunks and a bit


def _spooled(name: str, data: bytes) -> TemporaryUploadedFile:
    spooled = TemporaryUploadedFile(name, "text/plain", len(data), None)
    spooled.write(data)
    spooled.seek(0)
    return spooled


def test_it_stores_each_file_in_chunks_and_reads_it_back(workload, alice):
    upload = store_upload(workload, alice, [SimpleUploadedFile("kept-in-memory.txt", DATA),
                                            _spooled("spooled.txt", DATA)])
    for stored in upload.files.all():
        sizes = [len(chunk) for chunk in stored.chunks.order_by("index").values_list("data", flat=True)]
        assert sizes == [CHUNK_BYTES, CHUNK_BYTES, len(b"the end\n")], stored.name
        assert stored.size_bytes == len(DATA) and read_file(stored) == DATA
