"""An uploaded file's original bytes in the file storage (settings.STORAGES's "default"), written and read one file
at a time.

The request never reads a file whole: Django's parser has spooled anything over 2.5 MB to a temporary file, which
the filesystem storage moves into place (a rename on the same filesystem) and an object store receives in parts.
The worker reads one file at a time, so that its memory is one file's bytes however many files the upload holds.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.db import transaction

from workloads.models import Upload, UploadFile


def store_file(upload: Upload, name: str, uploaded) -> UploadFile:
    """Save one of Django's UploadedFiles under `upload`. Call inside the transaction that saves the upload, and
    `remove` what was stored if that transaction fails: the storage is not rolled back with it."""
    stored = UploadFile(upload=upload, name=name, size_bytes=uploaded.size)
    storage, target = stored.original.storage, stored.original.field.generate_filename(stored, name)
    try:
        stored.original = storage.save(target, uploaded, max_length=stored.original.field.max_length)
    except BaseException:
        # The filesystem storage leaves what it had written of a file whose reading failed (a client gone
        # mid-upload, gunicorn's timeout): the random name is the upload's own, so it can go.
        storage.delete(target)
        raise
    stored.save()
    return stored


def remove(names: Iterable[str]) -> None:
    """Delete these originals from the storage (a name already gone is no error)."""
    storage = UploadFile._meta.get_field("original").storage
    for name in names:
        if name:
            storage.delete(name)


def remove_on_commit(name: str) -> None:
    """Delete an original once the transaction that let go of it commits (at once outside one): rolled back, the row
    still names it. Robust: the rows are committed by then, so a storage error is logged, not raised into the
    request or task that deleted them."""
    transaction.on_commit(functools.partial(remove, [name]), robust=True)


def read_file(stored: UploadFile) -> bytes:
    """A stored file's original bytes."""
    with stored.original.open("rb") as original:
        return original.read()
