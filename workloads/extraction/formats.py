"""Readers for structured formats: PDF (pypdfium2), DOCX (python-docx and word.py) and JSON/JSONL chat transcripts.

Each reader returns (text, detail) or raises Skip with a reason the user can understand.
"""

import io
import json
import re
import zipfile

import docx
import pypdfium2
from lxml import etree

from .datatypes import Limits, Skip, human_size, visible
from .pdf_forms import place_flattened, write_choices
from .text import normalise
from .word import read_word

SPEAKER_KEYS = ("role", "speaker", "author", "from")
CONTENT_KEYS = ("content", "text", "message", "body")
TRANSCRIPT_KEYS = ("messages", "conversation", "transcript")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def read_pdf(data: bytes) -> tuple[str, str]:
    """Run in a child process with a memory cap (isolation.py); a MemoryError is left for it to report."""
    # pdfium is C code fed untrusted bytes: whatever it raises means the file is unusable, not that we have a bug.
    try:
        document = pypdfium2.PdfDocument(data)
        # A filled-in form's values (a contract's parties, dates, amounts) are drawn by its fields' widgets, not by
        # the page, so the page's text lacks them; with the form loaded, each page's fields are flattened into it
        # below, in memory. This pdfium build runs no JavaScript (no V8, no XFA).
        document.init_forms()
    except MemoryError:
        raise
    except Exception as exc:
        reason = _pdfium_reason(exc)
        if "password" in reason.lower():
            raise Skip("PDF is password-protected") from None
        raise Skip(f"corrupt PDF: {reason}") from None
    try:
        pages = [_page_text(document, index) for index in range(len(document))]
    except MemoryError:
        raise
    except Exception as exc:
        raise Skip(f"corrupt PDF: {_pdfium_reason(exc)}") from None
    finally:
        document.close()
    text = "\n\n".join(text for text, _, _ in pages)
    if not text.strip():
        raise Skip("PDF has no text layer (scanned image?)")
    detail = f"PDF, {_plural(len(pages), 'page')}"
    if any(flattened for _, flattened, _ in pages):
        detail += ", its form's text fields read"
    if any(choices for _, _, choices in pages):
        detail += ", its check boxes and radio buttons read as [x] or [ ]"
    return text, detail


def _page_text(document: pypdfium2.PdfDocument, index: int) -> tuple[str, bool, int]:
    """The page's text, whether it had form fields or annotations to flatten into it first, and how many check
    boxes and radio buttons it had."""
    page = document[index]
    choices = write_choices(document, page) if page.formenv else 0
    objects = pypdfium2.raw.FPDFPage_CountObjects(page.raw)
    # pdfium calls a page whose only widgets were the boxes above flattened, with nothing left to flatten.
    flattened = (bool(page.formenv) and pypdfium2.raw.FPDFPage_GetAnnotCount(page.raw) > 0
                 and page.flatten() == pypdfium2.raw.FLATTEN_SUCCESS)
    if flattened:
        page.close()
        page = document[index]  # flattening leaves the open page's handles stale
        place_flattened(page, objects)
    textpage = page.get_textpage()
    try:
        return _joined_hyphenation(normalise(textpage.get_text_bounded())).rstrip(), flattened, choices
    finally:
        textpage.close()
        page.close()


# A word split at a line's end by hyphenation. pdfium joins the lines itself where a line ends in "-", leaving
# \x02 for the hyphen; a soft hyphen, or the hyphen U+2010 that typesetters such as WeasyPrint draw there, it
# leaves with the line break.
_HYPHENATED = re.compile(r"(?<=[^\W\d_])(?:\x02|[\u00ad\u2010]\n)(?=[^\W\d_])")


def _joined_hyphenation(text: str) -> str:
    """Words split across lines rejoined ("uninter-\nrupted" as "uninterrupted") when the second part starts in
    lower case, as hyphenation splits words; otherwise the hyphen is kept ("Mid-Year"). Compounds split at their
    own hyphen ("long-\nterm") read joined too: the page cannot tell them apart."""
    def join(match: re.Match) -> str:
        if text[match.end()].islower():
            return ""
        return "-" if match.group() == "\x02" else match.group()

    return _HYPHENATED.sub(join, text).replace("\x02", "-")


def _pdfium_reason(exc: Exception) -> str:
    # "Failed to load document (PDFium: Data format error)." -> "Data format error"
    match = re.search(r"PDFium: ([^)]+)", str(exc))
    return match.group(1) if match else str(exc) or type(exc).__name__


def read_docx(data: bytes, limits: Limits) -> tuple[str, str]:
    """Run in a child process with a memory cap (isolation.py); running out of memory raises MemoryError."""
    # A DOCX is a ZIP that python-docx unpacks into memory, so it gets the archive size limit against zip bombs.
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            unpacked = sum(info.file_size for info in package.infolist())
    except Exception:
        raise Skip("corrupt DOCX: not a Word .docx file") from None
    if unpacked > limits.max_archive_bytes:
        limit = human_size(limits.max_archive_bytes)
        raise Skip(f"DOCX too large once unpacked: {human_size(unpacked)}, limit {limit}")
    # python-docx and lxml raise many exception types for malformed packages; all mean the same to the user.
    try:
        text = read_word(docx.Document(io.BytesIO(data)))
    except (MemoryError, Skip):
        raise
    except etree.XMLSyntaxError as exc:
        if exc.code == etree.ErrorTypes.ERR_NO_MEMORY:
            # libxml2 reports a failed allocation as a syntax error ("unknown error"), not as corrupt XML.
            raise MemoryError from exc
        raise Skip(f"corrupt DOCX: {_malformed_part(data, exc)}") from None
    except Exception as exc:
        raise Skip(f"corrupt DOCX: {str(exc) or type(exc).__name__}") from None
    detail = f"DOCX, {_plural(text.paragraphs, 'paragraph')}"
    if text.tables:
        detail += f", {_plural(text.tables, 'table')}"
    if text.notes:
        detail += f", {_plural(text.notes, 'note')}"
    if text.tracked_changes:
        detail += ", tracked changes accepted"
    if text.unread_embedded:
        detail += f", {_plural(text.unread_embedded, 'embedded document')} not read (RTF, MHT or Word)"
    return normalise("\n".join(text.lines)), detail


def _malformed_part(data: bytes, exc: etree.XMLSyntaxError) -> str:
    """lxml's error with the part it is in: lxml knows only "<string>", and a DOCX has a dozen XML parts.

    Only called once python-docx has failed, so a well-formed file is not parsed twice. The part is the one that
    fails with the same error; an undefined entity (&nbsp; from an HTML converter) is named as such.
    """
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        for info in package.infolist():
            if not info.filename.endswith((".xml", ".rels")):
                continue
            try:
                etree.fromstring(package.read(info), etree.XMLParser(resolve_entities=False))
            except etree.XMLSyntaxError as error:
                if error.msg == exc.msg:
                    return f"{visible(info.filename)} is not well-formed XML: {_xml_reason(error)}"
    return exc.msg or type(exc).__name__


def _xml_reason(error: etree.XMLSyntaxError) -> str:
    entity = re.match(r"Entity '([^']+)' not defined", error.msg)
    if error.code == etree.ErrorTypes.ERR_UNDECLARED_ENTITY and entity:
        line, column = error.position
        return f"undefined entity &{entity.group(1)}; at line {line}, column {column}"
    return error.msg


def read_json(text: str) -> tuple[str, str]:
    # Parsing, rendering and pretty-printing all recurse, so hostile nesting is caught once here.
    try:
        return _read_json(text)
    except RecursionError:
        raise Skip("corrupt JSON: nested too deeply") from None


def read_jsonl(text: str) -> tuple[str, str]:
    try:
        return _read_jsonl(text)
    except RecursionError:
        raise Skip("corrupt JSON: nested too deeply") from None


def _read_json(text: str) -> tuple[str, str]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Skip(f"corrupt JSON: {exc.msg} (line {exc.lineno})") from None
    if isinstance(value, dict):
        value = next((value[key] for key in TRANSCRIPT_KEYS if _is_transcript(value.get(key))), value)
    if _is_transcript(value):
        rendered, count = _render_transcript(value)
        return rendered, f"JSON transcript, {_plural(count, 'message')}"
    return normalise(json.dumps(value, indent=2, ensure_ascii=False)), "JSON"


def _read_jsonl(text: str) -> tuple[str, str]:
    records = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise Skip(f"corrupt JSON: {exc.msg} (line {number})") from None
    if _is_transcript(records):
        rendered, count = _render_transcript(records)
        return rendered, f"JSONL transcript, {_plural(count, 'message')}"
    # One compact record per line keeps JSONL's shape; ensure_ascii=False turns \u escapes back into readable text.
    lines = [json.dumps(record, ensure_ascii=False) for record in records]
    return normalise("\n".join(lines)), f"JSONL, {_plural(len(records), 'record')}"


def _is_message(value) -> bool:
    return (
        isinstance(value, dict)
        and any(key in value for key in SPEAKER_KEYS)
        and any(key in value for key in CONTENT_KEYS)
    )


def _is_transcript(value) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_message(item) for item in value)


def _render_transcript(messages: list[dict]) -> tuple[str, int]:
    lines = []
    for message in messages:
        speaker = _speaker(next(message[key] for key in SPEAKER_KEYS if key in message))
        content = _content(next(message[key] for key in CONTENT_KEYS if key in message)).strip()
        # Tool calls and system stubs often carry no text; a bare "assistant:" line would only cost tokens.
        if content:
            lines.append(f"{speaker}: {content}")
    return normalise("\n".join(lines)), len(lines)


def _speaker(value) -> str:
    # Exports such as ChatGPT's use {"author": {"role": "user", "name": null}}.
    if isinstance(value, dict):
        value = value.get("name") or value.get("role")
    return str(value) if value not in (None, "") else "unknown"


def _content(value) -> str:
    # Content may be a plain string, a list of parts ([{"type": "text", "text": ...}]) or {"parts": [...]}.
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(part for part in map(_content, value) if part)
    if isinstance(value, dict):
        key = next((key for key in ("text", "content", "parts", "value") if key in value), None)
        return _content(value[key]) if key else ""
    return json.dumps(value, ensure_ascii=False)
