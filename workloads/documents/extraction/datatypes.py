"""What the caller passes in (limits) and gets back (one result per document)."""

import codecs
import re
import unicodedata
from dataclasses import dataclass, fields

# Document.name's max_length in the database (a test checks they agree). A ZIP member path may be 65,535 bytes
# long; one name over the column's limit would fail the transaction that saves the whole upload.
MAX_NAME_LENGTH = 500


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int  # one uploaded file, and one archive member once decompressed
    max_archive_members: int  # files (not directories) in one ZIP
    max_archive_bytes: int  # total decompressed size of one ZIP
    # One PDF or DOCX is read in a child process with at most this much memory (address space) and time.
    max_reader_memory_bytes: int = 2**30
    reader_timeout_s: int = 120
    # Not a limit but how to read text in a legacy encoding: the organisation's region's encodings, first the
    # likeliest, preferred where charset-normalizer's readings are close (regions.py, text.decode_text).
    preferred_encodings: tuple[str, ...] = ()

    def __post_init__(self):
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name == "preferred_encodings":
                self._check_encodings(value)
            elif not isinstance(value, int) or value <= 0:
                raise ValueError(f"Limits.{field.name} must be a positive int, got {value!r}")

    def _check_encodings(self, names) -> None:
        if not isinstance(names, (tuple, list)) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"Limits.preferred_encodings must be encoding names, got {names!r}")
        for name in names:
            try:
                codecs.lookup(name)
            except LookupError:
                raise ValueError(f"Limits.preferred_encodings: unknown encoding {name!r}") from None
        object.__setattr__(self, "preferred_encodings", tuple(names))  # a list, from the reader child's JSON


@dataclass(frozen=True)
class Extracted:
    name: str  # unique document name: "lease.pdf", or "shop.zip/src/cart.py" for an archive member; <= MAX_NAME_LENGTH
    source_path: str | None  # member path inside the archive, None for a plain upload; <= MAX_NAME_LENGTH
    kept: bool
    detail: str  # kept: what was read ("PDF, 3 pages"); skipped: why, in plain words for the user
    text: str | None  # None when skipped; "\n" newlines, no NUL, no BOM, no lone surrogate
    size_bytes: int  # bytes of the original file or member
    lines: int  # lines of text, 0 when skipped


class Skip(Exception):
    """Content we cannot use; the message is the reason shown to the user."""


def skipped(name: str, source_path: str | None, size_bytes: int, reason: str) -> Extracted:
    return Extracted(name, source_path, False, reason, None, size_bytes, 0)


def kept(name: str, source_path: str | None, size_bytes: int, detail: str, text: str) -> Extracted:
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    return Extracted(name, source_path, True, detail, text, size_bytes, lines)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def human_size(size: int) -> str:
    if size >= 1024**3:
        return f"{size / 1024**3:.1f} GiB"
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MiB"
    if size >= 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size} bytes"


def too_large(size: int, limit: int) -> str:
    return f"too large: {human_size(size)}, limit {human_size(limit)}"


def shorten(text: str, limit: int = MAX_NAME_LENGTH) -> str:
    """text cut in the middle to at most limit characters: its end (the file's own name) is worth keeping too."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


# Characters that are invisible or move text around on screen: C0 and C1 controls (a newline, an ANSI colour
# escape), line and paragraph separators, and bidi embeddings, overrides and isolates ("rtl\u202egnp.txt" shows as
# "rtltxt.png"). In a document name they could hide or fake its real ending on the pages and in the logs.
HIDDEN_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def visible(name: str) -> str:
    """name without the characters that could hide or fake what it says (dropped, not replaced), in NFC: macOS
    writes "ü" as "u" and a combining diaeresis, which looks the same and must name the same document."""
    return HIDDEN_CHARACTERS.sub("", unicodedata.normalize("NFC", name))
