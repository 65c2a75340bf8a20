"""Entry point: one uploaded file to a list of Extracted (one per document, or per archive member)."""

import dataclasses
import re
from collections.abc import Iterator

from .archives import Pending, read_zip
from .datatypes import MAX_NAME_LENGTH, Extracted, Limits, shorten, skipped, visible
from .readers import extension, read_document


def extract_file(name: str, data: bytes, limits: Limits) -> list[Extracted]:
    """Every entry of one uploaded file at once (see iter_file)."""
    return list(iter_file(name, data, limits))


def iter_file(name: str, data: bytes, limits: Limits) -> Iterator[Extracted]:
    """One uploaded file's entries (the file itself, or each member of a ZIP), read one at a time as they are asked
    for: a caller that lets each entry's text go before asking for the next holds one member's text, not the
    archive's. Names are unique and within MAX_NAME_LENGTH."""
    if not isinstance(name, str):
        raise ValueError(f"name must be str, got {type(name).__name__}")
    if not isinstance(data, bytes):
        raise ValueError(f"data must be bytes, got {type(data).__name__}")
    if not isinstance(limits, Limits):
        raise ValueError(f"limits must be Limits, got {type(limits).__name__}")
    return _read_pending(_pending(base_name(name), data, limits))


def _pending(name: str, data: bytes, limits: Limits) -> list[Pending]:
    if extension(name) == ".zip":
        return read_zip(name, data, limits)  # checks the whole archive before reading any member
    return [Pending(name, lambda: read_document(name, None, data, limits))]


def _read_pending(pending: list[Pending]) -> Iterator[Extracted]:
    for entry, name in zip(pending, _unique_names([shorten(p.name) for p in pending]), strict=True):
        yield _within_name_limit(entry.read(), name)


def base_name(name: str) -> str:
    """The last part of a user-supplied file name: browsers and clients may send a full Windows or POSIX path."""
    base = visible(re.split(r"[\\/]", name)[-1]).strip()
    return base if base not in ("", ".", "..") else "unnamed"


def _within_name_limit(entry: Extracted, name: str) -> Extracted:
    """The entry under its unique name. A kept document whose name was too long is skipped, like any file we cannot
    store; a skipped entry keeps its own reason ("symbolic link", ...) and only its name is cut."""
    if len(entry.name) <= MAX_NAME_LENGTH:
        return entry if name == entry.name else dataclasses.replace(entry, name=name)
    path = entry.source_path and shorten(entry.source_path)
    if not entry.kept:
        return dataclasses.replace(entry, name=name, source_path=path)
    reason = f"name too long: {len(entry.name):,} characters, limit {MAX_NAME_LENGTH}"
    return skipped(name, path, entry.size_bytes, reason)


def _unique_names(names: list[str]) -> list[str]:
    # A ZIP's older copy of a path is listed before the copy kept, and shortened names may meet; names must stay
    # unique for the caller. Later entries claim their names first, as ZIP tools read an archive's last copy of a
    # path, so that the older copy is the one renamed; names are settled before any entry is read.
    seen: set[str] = set()
    unique = list(names)
    for index in reversed(range(len(names))):
        name, copy = names[index], 1
        while name in seen:
            copy += 1
            suffix = f" ({copy})"
            name = shorten(names[index], MAX_NAME_LENGTH - len(suffix)) + suffix
        seen.add(name)
        unique[index] = name
    return unique
