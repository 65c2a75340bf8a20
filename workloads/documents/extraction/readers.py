"""One document (a plain upload or one archive member) to one Extracted, choosing the reader by extension."""

import posixpath
import re

from .datatypes import Extracted, Limits, Skip, kept, skipped, too_large
from .isolation import read_in_child
from .text import decode_text
from .transcripts import read_json, read_jsonl

# Read as text as is. Names without an extension (Makefile, Dockerfile, LICENSE, .env) are read as text too.
TEXT_EXTENSIONS = frozenset(
    ".txt .md .markdown .rst .csv .tsv .log "
    ".py .js .jsx .ts .tsx .java .kt .go .rs .c .h .cc .cpp .hpp .cs .rb .php .swift .scala .sh .bash .sql "
    ".html .htm .css .scss .xml .yaml .yml .toml .ini .cfg .conf .gradle .r .m .lua .pl .dart .vue .svelte".split()
)
# Extensions we know how to read; any other one is still kept when its content turns out to be text.
_KNOWN_TEXT_EXTENSIONS = TEXT_EXTENSIONS | {".json", ".jsonl"}


def extension(name: str) -> str:
    return posixpath.splitext(name.lower())[1]


def read_document(name: str, source_path: str | None, data: bytes, limits: Limits) -> Extracted:
    try:
        text, detail = _read(name, data, limits)
    except Skip as skip:
        return skipped(name, source_path, len(data), str(skip))
    return kept(name, source_path, len(data), detail, text)


# RTF's first group, after any byte order mark and blank space: "{\rtf1" (the version's digit tells it from a TeX
# macro such as "{\rtfx}").
_RTF_START = re.compile(rb"(?:\xef\xbb\xbf)?\s*\{\\rtf\d")


def _read(name: str, data: bytes, limits: Limits) -> tuple[str, str]:
    if len(data) > limits.max_file_bytes:
        raise Skip(too_large(len(data), limits.max_file_bytes))
    suffix = extension(name)
    if suffix == ".pdf":
        return read_in_child("PDF", data, limits)
    # Text, but markup ("{\rtf1\ansi\deff0{\fonttbl..."), not what its reader sees; Word saves RTF as .doc too.
    if suffix == ".rtf" or _RTF_START.match(data[:1024]):
        raise Skip("RTF is not read: save it as DOCX or PDF and upload that")
    if suffix == ".docx":
        text, detail = read_in_child("DOCX", data, limits)
    else:
        text, detail = _read_text(data, suffix, limits.preferred_encodings)
    if not text.strip():
        raise Skip("empty: no text")
    return text, detail


def _read_text(data: bytes, suffix: str, preferred_encodings: tuple[str, ...]) -> tuple[str, str]:
    try:
        decoded = decode_text(data, preferred_encodings)
    except Skip:
        if suffix and suffix not in _KNOWN_TEXT_EXTENSIONS:
            raise Skip(f"unsupported file type {suffix}") from None
        raise
    # Checked before parsing so that a blank .json says "empty" rather than "corrupt JSON".
    if not decoded.text.strip():
        raise Skip("empty: no text")
    if suffix == ".json":
        text, detail = read_json(decoded.text)
    elif suffix == ".jsonl":
        text, detail = read_jsonl(decoded.text)
    else:
        text, detail = decoded.text, "text"
    if decoded.encoding:
        detail += f" ({decoded.encoding})"
    return text, detail
