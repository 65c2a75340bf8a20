"""An uploaded file's bytes in the database, written and read a chunk at a time.

The request never reads a file whole: Django's parser has spooled anything over 2.5 MB to a temporary file, and its
chunks go to the database one by one. The worker reads one file at a time, a chunk per fetch, so that its memory is
one file's bytes however many files the upload holds.
"""

from __future__ import annotations

import io

from workloads.models import Upload, UploadFile, UploadFileChunk

# Small enough that the request and a fetch hold little (psycopg sends and receives bytea as hex text: twice this),
# large enough that a 20 MiB file is 20 rows.
CHUNK_BYTES = 2**20


def store_file(upload: Upload, name: str, uploaded) -> UploadFile:
    """Save one of Django's UploadedFiles under `upload`; call inside the transaction that saves the upload."""
    stored = UploadFile.objects.create(upload=upload, name=name, size_bytes=0)
    index = size = 0
    for data in uploaded.chunks(CHUNK_BYTES):
        # A file Django kept in memory (2.5 MB at most) comes whole, whatever the chunk size asked: cut it too.
        for start in range(0, len(data), CHUNK_BYTES):
            piece = data[start:start + CHUNK_BYTES]
            UploadFileChunk.objects.create(file=stored, index=index, data=piece)
            index, size = index + 1, size + len(piece)
    stored.size_bytes = size
    stored.save(update_fields=["size_bytes"])
    return stored


def read_file(stored: UploadFile) -> bytes:
    """A stored file's bytes, fetched a chunk at a time."""
    chunks = (UploadFileChunk.objects.filter(file=stored).order_by("index").values_list("data", flat=True)
              .iterator(chunk_size=1))
    buffer = io.BytesIO()
    for data in chunks:
        buffer.write(data)
    # getvalue() of a BytesIO nobody else holds hands over its buffer without a copy.
    return buffer.getvalue()
