"""Accepting uploaded files: validated at the edge, stored in the file storage, then extracted by the
workloads.extract_upload task, one file at a time, into the Documents the workload has room for."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from workloads.documents import upload_storage
from workloads.documents.extraction import Limits, iter_file
from workloads.documents.extraction.datatypes import human_size
from workloads.documents.extraction.regions import preferred_encodings
from workloads.documents.extraction.token_count import TokenCount
from workloads.documents.extraction.token_floor import TokenFloor
from workloads.documents.probe_files import looks_like_probes
from workloads.models import Document, Upload, UploadFile, UploadItem, Workload
from workloads.organisations import quotas
from workloads.workers import dispatch, leases


def validate_files(files: Sequence) -> None:
    """Raise ValidationError naming the first file that breaks a limit."""
    if not files:
        raise ValidationError("choose at least one file to upload")
    if len(files) > settings.UPLOAD_MAX_FILES:
        raise ValidationError(f"{len(files)} files at once is more than the limit of {settings.UPLOAD_MAX_FILES}")
    for f in files:
        if f.size > settings.UPLOAD_MAX_FILE_BYTES:
            raise ValidationError(f"{f.name} is {_over(f.size, settings.UPLOAD_MAX_FILE_BYTES)} per file")
        if f.size == 0:
            raise ValidationError(f"{f.name} is empty")


def _over(size: int, limit: int) -> str:
    """As "25.0 MiB, more than the limit of 20.0 MiB"; in bytes when both round alike, as one byte over does."""
    if human_size(size) == human_size(limit):
        return f"{size:,} bytes, more than the limit of {limit:,} bytes ({human_size(limit)})"
    return f"{human_size(size)}, more than the limit of {human_size(limit)}"


class ProbeFilesNotConfirmed(ValidationError):
    """A file reads as probes (workloads.probe_import.looks_like_probes), and the user has not said to store it as a
    document anyway; `flag` confirms it, on the form and in the API."""

    flag = "store_probe_files"


def check_probe_files(files: Sequence) -> None:
    """Refuse an upload holding a file of probes, which would put their answers in the documents."""
    named = []
    for f in files:
        head = f.read(4096)
        f.seek(0)
        if looks_like_probes(f.name or "", head):
            named.append(f.name)
    if named:
        raise ProbeFilesNotConfirmed(
            f"{', '.join(named)} {'looks' if len(named) == 1 else 'look'} like probes (questions with their answers): "
            "stored as documents, the answers would be in the text every strategy reads. Import probes on the "
            "workload page instead, or confirm to store them as documents anyway")


def accept_upload(workload: Workload, user, files: Sequence, replace_same_names: bool = False,
                  store_probe_files: bool = False) -> Upload:
    """Store the files and queue their extraction once the transaction commits; a file of probes only with
    store_probe_files."""
    if not store_probe_files:
        check_probe_files(files)
    with transaction.atomic():
        upload = store_upload(workload, user, files, replace_same_names)
        dispatch.queue_extraction(upload.pk)
    return upload


def store_upload(workload: Workload, user, files: Sequence, replace_same_names: bool = False) -> Upload:
    """Validate and store the files, all or none, as a queued Upload (extraction not yet asked for).

    replace_same_names: a document the files read as replaces the workload's document of that name (a new version
    of a contract, a codebase uploaded again) instead of being skipped.

    Refused with quotas.QuotaExceeded past the organisation's quota of uploads a day or of stored bytes.
    """
    validate_files(files)
    size = sum(f.size for f in files)
    quotas.check_upload(workload.organisation, size)  # before anything is written
    stored = []
    try:
        with transaction.atomic():
            upload = Upload.objects.create(workload=workload, created_by=user, replace_same_names=replace_same_names)
            for f in files:
                stored.append(upload_storage.store_file(upload, (f.name or "unnamed")[-255:], f).original.name)
            quotas.admit_upload(workload.organisation, size)  # again under the lock, counting uploads stored meanwhile
    except BaseException:
        # The rows rolled back; the storage does not, so the originals stored so far go too: nothing half-saved.
        upload_storage.remove(stored)
        raise
    return upload


_NAME_TAKEN = "skipped: a document with this name is already in the workload"
_NAME_REPEATED = "skipped: an earlier file of this upload has this name"
_NEWER_TEXT = "skipped: the document of this name already has a newer text, from an upload sent after this one"


def extract(upload: Upload, tokenizer, me: str) -> tuple[list[Document | None], list[UploadItem]]:
    """Read an upload's files: documents to keep (None where skipped) and an item for each, judged against the
    workload as it is now, counting tokens with the workload's model's `tokenizer`. Nothing is saved but the progress
    of the worker `me`; once the upload is no longer its own (cancelled, or taken over), leases.Stopped stops it
    before the next file.

    The slow part of an upload, so it takes no lock. Names taken and the token limit are checked here too, so that
    no time is spent on text that cannot be kept; `keep` checks them again under the workload's lock.
    """
    token_floor, token_count = TokenFloor(tokenizer), TokenCount(tokenizer)
    limits = Limits(max_file_bytes=settings.UPLOAD_MAX_FILE_BYTES, max_archive_members=settings.ARCHIVE_MAX_MEMBERS,
                    max_archive_bytes=settings.ARCHIVE_MAX_BYTES,
                    max_reader_memory_bytes=settings.EXTRACTION_MAX_MEMORY_BYTES,
                    reader_timeout_s=settings.EXTRACTION_TIMEOUT_S,
                    preferred_encodings=preferred_encodings(upload.workload.organisation.timezone))
    room = _Room(upload)
    documents, items = [], []
    # One file at a time, its bytes and text let go before the next is read: only the text kept stays, and the
    # workload's token limit bounds that.
    for done, upload_file in enumerate(upload.files.all(), start=1):
        for document, item in _extract_file(upload_file, limits, room, token_floor, token_count):
            documents.append(document)
            items.append(item)
        leases.report(Upload, upload.pk, me, files_done=done)
    return documents, items


def _extract_file(upload_file: UploadFile, limits: Limits, room: _Room, token_floor: TokenFloor,
                  token_count: TokenCount) -> list[tuple[Document | None, UploadItem]]:
    """What one file reads as: a document to keep (or None) and an item for each of its entries."""
    read = []
    for e in iter_file(upload_file.name, upload_storage.read_file(upload_file), limits):
        document, detail, tokens = None, e.detail, 0
        if e.kept and (refusal := room.name_refusal(e.name)):
            detail = refusal
        elif e.kept and (at_least := token_floor(e.text)) > room.tokens_left(e.name):
            detail = _over_the_limit(f"at least {at_least:,}")
        elif e.kept:
            tokens = token_count(e.text)
            if tokens > room.tokens_left(e.name):
                detail = _over_the_limit(f"{tokens:,}")
            else:
                room.keep(e.name, tokens)
                document = Document(workload=upload_file.upload.workload, name=e.name,
                                    source_path=e.source_path or "", origin=upload_file, text=e.text, tokens=tokens,
                                    lines=e.lines, size_bytes=e.size_bytes)
        read.append((document, UploadItem(upload=upload_file.upload, name=e.name, kept=document is not None,
                                          detail=detail[:500], tokens=tokens if document else 0)))
    return read


def keep(upload: Upload, documents: list[Document | None], items: list[UploadItem]) -> set[int]:
    """Save what `extract` read that the workload still has room for, and what became of each file, all or none.
    Returns the UploadFiles that the documents replaced came from (upload_retention purges those left unheld)."""
    replaced_origins = set()
    with transaction.atomic():
        # Another worker may be saving an upload of the same workload: one at a time, each judged against
        # the documents the other saved. (NO KEY: a new run or probe of the workload need not wait.)
        Workload.objects.select_for_update(no_key=True).get(pk=upload.workload_id)
        replacing = _admit(upload, documents, items)
        for document, item in zip(documents, items, strict=True):
            if document:
                if (origin := _save(document, replacing)) is not None:
                    replaced_origins.add(origin)
                item.document = document
        UploadItem.objects.bulk_create(items)
    return replaced_origins


def _admit(upload: Upload, documents: list[Document | None], items: list[UploadItem]) -> set[str]:
    """Skip the documents that the workload, as saved now, has no room for: their name taken or too many tokens.
    Returns the names of the workload's documents that kept ones replace.

    Called under the workload's lock: another upload may have been saved since `extract` looked.
    """
    room = _Room(upload)
    replacing = set()
    for index, (document, item) in enumerate(zip(documents, items, strict=True)):
        if document is None:
            continue
        refusal = room.name_refusal(document.name)
        if refusal is None and document.tokens <= room.tokens_left(document.name):
            if room.keep(document.name, document.tokens):
                replacing.add(document.name)
                item.detail = item.detail[:500 - len(UploadItem.REPLACED_NOTE)] + UploadItem.REPLACED_NOTE
            continue
        reason = refusal or _over_the_limit(f"{document.tokens:,}")
        item.kept, item.detail, item.tokens, documents[index] = False, reason, 0, None
    return replacing


def _save(document: Document, replacing: set[str]) -> int | None:
    """Save a new document, or put it in the place of the document of its name, which keeps its address and the
    date it was added (its page says which upload its text was read from); returns the replaced one's UploadFile."""
    if document.name not in replacing:
        document.save()
        return None
    document.pk, document.created_at, origin = document.workload.documents.values_list(
        "pk", "created_at", "origin_id").get(name=document.name)
    document.save(force_update=True)
    return origin


class _Room:
    """The names a workload's documents leave free, and the tokens its limit leaves, as an upload fills them.

    An upload that replaces documents of the same names may take a name the workload has: its document then counts
    instead of the one it replaces, unless an upload sent after it (a higher id) gave that document its text: uploads
    extract side by side, and the one finishing last must not put an older version back."""

    def __init__(self, upload: Upload):
        documents = list(upload.workload.documents.values_list("name", "tokens", "origin__upload_id"))
        self.existing = {name: tokens for name, tokens, _ in documents}
        self.newer = {name for name, _, origin in documents if origin is not None and origin > upload.pk}
        self.left = settings.WORKLOAD_MAX_TOKENS - sum(self.existing.values())
        self.replacing = upload.replace_same_names
        self.kept: set[str] = set()

    def name_refusal(self, name: str) -> str | None:
        """Why a document of this name cannot be kept, or None: an earlier file of the upload took it, the workload
        has it and the upload does not replace, or an upload sent later gave it its text."""
        if name in self.kept:
            return _NAME_REPEATED
        if name in self.existing and not self.replacing:
            return _NAME_TAKEN
        return _NEWER_TEXT if name in self.newer else None

    def tokens_left(self, name: str) -> int:
        """How many tokens a document of this name may have."""
        return self.left + (self.existing.get(name, 0) if self.replacing else 0)

    def keep(self, name: str, tokens: int) -> bool:
        """Count a document in; whether it replaces one."""
        self.left = self.tokens_left(name) - tokens
        self.kept.add(name)
        return self.existing.pop(name, None) is not None


def _over_the_limit(tokens: str) -> str:
    return f"skipped: {tokens} tokens would pass the workload's limit of {settings.WORKLOAD_MAX_TOKENS:,}"
