"""Bytes to text: BOM first, then strict UTF-8, then charset-normalizer's best guess."""

import codecs
from dataclasses import dataclass

import charset_normalizer

from .datatypes import Skip

# Binary formats almost always hold a NUL early on; real text (other than UTF-16/32, which has a BOM) never does.
NUL_SCAN_BYTES = 8 * 1024

# UTF-32 LE must be tried before UTF-16 LE: its BOM starts with the UTF-16 LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8-sig", None),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)


@dataclass(frozen=True)
class DecodedText:
    text: str
    encoding: str | None  # None for UTF-8, else the encoding's name as shown to the user


def normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def decode_text(data: bytes) -> DecodedText:
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                return DecodedText(normalise(data.decode(codec)), label)
            except UnicodeDecodeError:
                raise Skip(f"unreadable text: not valid {label or 'UTF-8'} despite its byte order mark") from None
    if b"\x00" in data[:NUL_SCAN_BYTES]:
        raise Skip("binary file")
    try:
        return DecodedText(normalise(data.decode("utf-8")), None)
    except UnicodeDecodeError:
        pass
    best = charset_normalizer.from_bytes(data).best()
    if best is None:
        raise Skip("binary file or unknown text encoding")
    return DecodedText(normalise(str(best)), best.encoding)
