"""Bytes to text: BOM first, then strict UTF-8, then charset-normalizer's best guess (cp1252 when it ties)."""

import codecs
import re
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


# Half of a UTF-16 surrogate pair: JSON's "\ud800" escape decodes to one. It cannot be encoded as UTF-8, so the
# tokenizer and the database would refuse it and fail the whole upload; U+FFFD marks what was there.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def normalise(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    return _LONE_SURROGATE.sub("\ufffd", text)


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
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    if best is None:
        raise Skip("binary file or unknown text encoding")
    # Single-byte code pages often tie (chaos and coherence within its margins: a short text, few accents),
    # and charset-normalizer then keeps the first it tried: cp1250 before cp1252, so Western "Naïve" became
    # Central European "Naďve". On a tie by its own ranking, prefer the far more common Windows Western code page;
    # where it ranks another code page clearly higher, its choice stands.
    western = next((m for m in matches if "cp1252" in m.could_be_from_charset and not best < m), None)
    if western is not None:
        return DecodedText(normalise(str(western)), "cp1252")
    return DecodedText(normalise(str(best)), best.encoding)
