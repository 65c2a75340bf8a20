"""Entry point: one uploaded file to a list of Extracted (one per document, or per archive member)."""

import dataclasses
import re

from .archives import read_zip
from .datatypes import MAX_NAME_LENGTH, Extracted, Limits, shorten, skipped, visible
from .readers import extension, read_document


def extract_file(name: str, data: bytes, limits: Limits) -> list[Extracted]:
    if not isinstance(name, str):
        raise ValueError(f"name must be str, got {type(name).__name__}")
    if not isinstance(data, bytes):
        raise ValueError(f"data must be bytes, got {type(data).__name__}")
    if not isinstance(limits, Limits):
        raise ValueError(f"limits must be Limits, got {type(limits).__name__}")
    name = base_name(name)
    entries = read_zip(name, data, limits) if extension(name) == ".zip" else [read_document(name, None, data, limits)]
    return _unique_names([_within_name_limit(entry) for entry in entries])


def base_name(name: str) -> str:
    """The last part of a user-supplied file name: browsers and clients may send a full Windows or POSIX path."""
    base = visible(re.split(r"[\\/]", name)[-1]).strip()
    return base if base not in ("", ".", "..") else "unnamed"


def _within_name_limit(entry: Extracted) -> Extracted:
    """A kept document whose name is too long is skipped, like any file we cannot store; every name is shortened.

    A skipped entry keeps its own reason ("symbolic link", ...): only its name in the report is cut.
    """
    if len(entry.name) <= MAX_NAME_LENGTH:
        return entry
    name, path = shorten(entry.name), entry.source_path and shorten(entry.source_path)
    if not entry.kept:
        return dataclasses.replace(entry, name=name, source_path=path)
    reason = f"name too long: {len(entry.name):,} characters, limit {MAX_NAME_LENGTH}"
    return skipped(name, path, entry.size_bytes, reason)


def _unique_names(entries: list[Extracted]) -> list[Extracted]:
    # A ZIP's older copy of a path is listed beside the copy kept, and shortened names may meet; names must stay
    # unique for the caller. Kept entries claim their names first, so that a skipped one is the one renamed.
    seen: set[str] = set()
    unique = list(entries)
    for index in sorted(range(len(entries)), key=lambda i: not entries[i].kept):
        entry = entries[index]
        name, copy = entry.name, 1
        while name in seen:
            copy += 1
            suffix = f" ({copy})"
            name = shorten(entry.name, MAX_NAME_LENGTH - len(suffix)) + suffix
        seen.add(name)
        unique[index] = entry if name == entry.name else dataclasses.replace(entry, name=name)
    return unique
