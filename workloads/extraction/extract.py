"""Entry point: one uploaded file to a list of Extracted (one per document, or per archive member)."""

import re

from .archives import read_zip
from .datatypes import Extracted, Limits
from .documents import extension, read_document

_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def extract_file(name: str, data: bytes, limits: Limits) -> list[Extracted]:
    if not isinstance(name, str):
        raise ValueError(f"name must be str, got {type(name).__name__}")
    if not isinstance(data, bytes):
        raise ValueError(f"data must be bytes, got {type(data).__name__}")
    if not isinstance(limits, Limits):
        raise ValueError(f"limits must be Limits, got {type(limits).__name__}")
    name = base_name(name)
    if extension(name) == ".zip":
        return read_zip(name, data, limits)
    return [read_document(name, None, data, limits)]


def base_name(name: str) -> str:
    """The last part of a user-supplied file name: browsers and clients may send a full Windows or POSIX path."""
    base = _CONTROL_CHARACTERS.sub("", re.split(r"[\\/]", name)[-1]).strip()
    return base if base not in ("", ".", "..") else "unnamed"
