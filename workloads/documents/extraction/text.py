"""Bytes to text: BOM first, then strict UTF-8 (or UTF-16 without a BOM), then charset-normalizer's best guess, with our
own tie-break."""

import codecs
import re
import unicodedata
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


def decode_text(data: bytes, preferred: tuple[str, ...] = ()) -> DecodedText:
    """`data` as text, and the encoding it was in. `preferred`: the legacy encodings of the organisation's region
    (regions.preferred_encodings), first the likeliest; a reading in one of them wins over others that read no
    better and that charset-normalizer finds close to it."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                return DecodedText(normalise(data.decode(codec)), label)
            except UnicodeDecodeError:
                raise Skip(f"unreadable text: not valid {label or 'UTF-8'} despite its byte order mark") from None
    if b"\x00" in data[:NUL_SCAN_BYTES]:
        if (codec := _utf16_without_bom(data)) is not None:
            try:
                text = data.decode(codec)
            except UnicodeDecodeError:
                text = None
            if text is not None and _mostly_printable(text[:NUL_SCAN_BYTES]):
                return DecodedText(normalise(text), "UTF-16")
        raise Skip("binary file")
    try:
        return DecodedText(normalise(data.decode("utf-8")), None)
    except UnicodeDecodeError:
        pass
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    if best is None:
        return _common_code_page(data)
    # Single-byte code pages often tie by charset-normalizer's own ranking (chaos and coherence within its
    # margins: a short text, few accents), and it then keeps the first it tried: cp1250 before cp1252, so Western
    # "Naïve" became "Naďve", while Polish read as cp1252 ("25 z³") and short Russian as cp1252 ("Öåíà") ranked as
    # well as their own code pages. Among the tied readings, the one that reads least like a wrong code page wins,
    # then the most common code page.
    # The region's encodings break a tie, or near one: a reading in one of them that charset-normalizer finds close
    # to its best (the French letter's cp1252 against cp1257's "déją") wins if it reads no worse.
    tied = [m for m in matches if not best < m] + _close_in(data, best, preferred)
    sample = data[:_SAMPLE_BYTES]  # judged on the start, so that a long file does not take a word loop per reading
    chosen = min(tied, key=lambda m: (_implausible(sample.decode(m.encoding, errors="ignore")),
                                      _rank(m, preferred), _commonness(m)))
    label = next((name for name in (*preferred, "cp1252") if name in chosen.could_be_from_charset), chosen.encoding)
    return DecodedText(normalise(str(chosen)), label)


# How far behind charset-normalizer's best reading a reading in the region's encodings may be and still win, in its
# two measures: chaos, the share of characters out of place (its own tie is 0.005), and coherence, how much the
# letters' frequencies look like a language's (its own tie is 0.02). Chosen on benchmarks/encoding_corpus.py: the
# right readings that lost were at most 0.007 behind in chaos and 0.04 in coherence (Italian, against cp1258's
# "pụ"); Turkish in cp1254, read as cp1252 by a Western region, is 0.077 behind in coherence, and stays cp1254.
_CLOSE_CHAOS, _CLOSE_COHERENCE = 0.01, 0.05


def _close_in(data: bytes, best, preferred: tuple[str, ...]) -> list:
    """The readings in the region's encodings close to the best, measured by charset-normalizer alone (its ranking
    keeps only a few of the readings it tried, and a Latin-9 one is seldom among them)."""
    if not preferred:
        return []
    return [m for m in charset_normalizer.from_bytes(data, cp_isolation=list(preferred))
            if m.chaos <= best.chaos + _CLOSE_CHAOS and m.coherence >= best.coherence - _CLOSE_COHERENCE]


def _rank(match, preferred: tuple[str, ...]) -> int:
    return min((preferred.index(name) for name in match.could_be_from_charset if name in preferred),
               default=len(preferred))


_SAMPLE_BYTES = 64 * 1024
def _utf16_without_bom(data: bytes) -> str | None:
    """The UTF-16 codec of mostly-Latin text saved without a byte order mark (by some Windows tools): every other
    byte NUL, the others not. A binary file's NULs fall anywhere."""
    sample = data[:NUL_SCAN_BYTES]
    if len(sample) < 2 or len(data) % 2:
        return None
    even, odd = sample[0::2], sample[1::2]
    for codec, high, low in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if high.count(0) >= 0.9 * len(high) and low.count(0) <= 0.01 * len(low):
            return codec
    return None


def _mostly_printable(text: str) -> bool:
    """Whether text reads as text: a table of small 16-bit numbers has UTF-16's NUL pattern too, but decodes to
    control characters (U+0001 for 1): a quarter of them for numbers up to 255. Text holds a few at most (a DOS
    end-of-file mark, Word's vertical tab for a line break), which a short file can make several percent of."""
    return _control_share(text) <= 0.1


def _control_share(text: str) -> float:
    """The share of control characters in text, tabs, line and page breaks aside."""
    controls = sum(unicodedata.category(c) == "Cc" and c not in "\t\n\r\f" for c in text)
    return controls / max(len(text), 1)


# Windows code pages by how often they are met, Western first; others rank after them, as charset-normalizer has.
_COMMON = ("cp1252", "cp1251", "cp1250", "cp1253", "cp1254", "cp1257", "cp1256", "cp1255", "cp1258")
# Marks that stand at a word's edges ("«prix»,") or inside one ("e-mail", "12,50", "don't", "a/b", "10:30").
_EDGE_PUNCTUATION = "\"'()[]{}<>«»‹›“”‘’„‚.,;:!?¿¡…–—*"
_IN_WORD = set("-'’.,/:@&+%_#")
_WORD_SEPARATORS = re.compile(r"[\s;|=]+")
_LETTER_RUNS = re.compile(r"[^\W\d_]+")
_SCRIPTS = {"LATIN", "CYRILLIC", "GREEK", "ARABIC", "HEBREW", "THAI", "ARMENIAN", "GEORGIAN"}
_WORD_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd"}  # letters, combining marks, digits: not "³"


def _common_code_page(data: bytes) -> DecodedText:
    """The common Windows code page under which data reads most plausibly, where charset-normalizer found none:
    it refuses some real text outright (a tab-separated table of Russian words and numbers is too "chaotic" for
    it). Only a clean reading is taken, next to no control characters and at most one word in twenty marked as
    a wrong code page's, so bytes that no encoding explains stay refused. The readings are judged on the start;
    only the best is decoded whole (a file may be megabytes, and there are nine code pages)."""
    readings = []
    for rank, name in enumerate(_COMMON):
        try:
            sample = data[:_SAMPLE_BYTES].decode(name)
        except UnicodeDecodeError:
            continue
        words = len(_WORD_SEPARATORS.split(sample.strip())) or 1
        if _control_share(sample) <= 0.01 and (mojibake := _implausible(sample) / words) <= 0.05:
            readings.append((mojibake, rank, name))
    for _, _, name in sorted(readings):
        try:
            return DecodedText(normalise(data.decode(name)), name)
        except UnicodeDecodeError:  # a byte past the start that this code page leaves undefined
            continue
    raise Skip("binary file or unknown text encoding")


def _commonness(match) -> int:
    ranks = [_COMMON.index(name) for name in match.could_be_from_charset if name in _COMMON]
    return min(ranks, default=len(_COMMON))


def _implausible(text: str) -> int:
    """How many words read as a wrong code page makes them: a symbol inside a word, unless beside a digit or a
    joining mark ("z³oty", "przyj¹³" for "złoty", "przyjął"; but "12€/m²", "3½", "m³/h" are real), or a run of
    letters that mixes scripts ("Grﺉﻑe" for "Größe") or is Latin of accented letters only ("Öåíà" for "Цена"), or
    the currency sign "¤" (Latin-9's "€" in cp1252).
    Words are also cut at ";", "|" and "=", so that the cells of a CSV line count one by one ("Товар;Цена"), and
    letters are judged run by run, so that "IT-отдел" is two runs of one script each."""
    count = 0
    for word in _WORD_SEPARATORS.split(text):
        inner = word.strip(_EDGE_PUNCTUATION)
        if any(_is_symbol(c) and not (_joins(inner[i - 1]) or _joins(inner[i + 1]))
               for i, c in enumerate(inner[1:-1], start=1)):
            count += 1
        elif any(_mojibake_letters(run) for run in _LETTER_RUNS.findall(inner)):
            count += 1
        elif "¤" in inner:  # the generic currency sign: Latin-9's "€" read in cp1252 or Latin-1; nobody writes it
            count += 1
    return count


def _joins(c: str) -> bool:
    return c.isdecimal() or c in _IN_WORD  # not isdigit: "³" is a digit to it


def _mojibake_letters(run: str) -> bool:
    scripts = {unicodedata.name(c, "?").split()[0] for c in run} & _SCRIPTS  # not "º" (MASCULINE ORDINAL)
    return len(scripts) > 1 or (len(run) > 1 and scripts == {"LATIN"} and not any(c.isascii() for c in run))


def _is_symbol(c: str) -> bool:
    return unicodedata.category(c) not in _WORD_CATEGORIES and c not in _IN_WORD
