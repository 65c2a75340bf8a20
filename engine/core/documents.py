"""Reading a workload's documents from disk as checked, normalised text.

Every problem with a file is an EngineError that names the file, because the person
who uploaded twenty files needs to know which one to fix.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import EngineError

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024

# Text files almost never hold a NUL byte; images, PDFs and archives nearly always do
# within their first few kilobytes, so this catches them before any decoding.
BINARY_SNIFF_BYTES = 8 * 1024


@dataclass(frozen=True)
class DocumentText:
    """A document as the engine reads it: its file name and extracted text (the web app's Document row holds more)."""

    name: str  # file name (basename) used in prompts and reports
    text: str


def read_documents(paths: Sequence[str | os.PathLike]) -> list[DocumentText]:
    """Read each path as a UTF-8 text document, in the order given.

    Newlines are normalised to "\\n"; the text is otherwise kept as it is. Raises
    EngineError for no paths, a missing, oversized, binary or empty file, or two
    files with the same name (reports and probes refer to documents by name).
    """
    if not paths:
        raise EngineError("no documents given: name at least one text file")
    documents: list[DocumentText] = []
    seen: set[str] = set()
    for path in map(Path, paths):
        document = _read_document(path)
        if document.name in seen:
            raise EngineError(f"two documents are both named {document.name}: rename one of them")
        seen.add(document.name)
        documents.append(document)
    return documents


def _read_document(path: Path) -> DocumentText:
    raw = _read_bytes(path)
    text = _decode(path, raw).replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise EngineError(f"{path.name} is empty: there is no text to process")
    return DocumentText(name=path.name, text=text)


def _read_bytes(path: Path) -> bytes:
    if not path.exists():
        raise EngineError(f"{path} does not exist")
    if not path.is_file():
        raise EngineError(f"{path} is not a regular file")
    size = path.stat().st_size
    if size > MAX_DOCUMENT_BYTES:
        raise EngineError(
            f"{path.name} is {size / 2**20:.1f} MiB, larger than the {MAX_DOCUMENT_BYTES // 2**20} MiB limit"
        )
    try:
        return path.read_bytes()
    except OSError as exc:
        raise EngineError(f"{path.name} cannot be read: {exc.strerror}") from exc


def _decode(path: Path, raw: bytes) -> str:
    if b"\0" in raw[:BINARY_SNIFF_BYTES]:
        raise EngineError(f"{path.name} looks binary, not text: extract its text first")
    # utf-8-sig reads plain UTF-8 too; it also drops the byte-order mark some Windows
    # editors write, which would otherwise reach prompts as an invisible U+FEFF.
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EngineError(f"{path.name} looks binary, not text: it is not valid UTF-8") from exc
