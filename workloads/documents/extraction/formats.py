"""Readers for documents with structure: PDF (pypdfium2, pdf_forms.py) and DOCX (python-docx and word.py), both run
in a child process (isolation.py). JSON and JSONL transcripts are read in transcripts.py.

Each reader returns (text, detail) or raises Skip with a reason the user can understand.
"""

import io
import re
import zipfile

import docx
import pypdfium2
from lxml import etree

from .datatypes import Limits, Skip, human_size, plural, visible
from .pdf_forms import place_flattened, write_choices
from .text import normalise
from .word import read_word


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
    detail = f"PDF, {plural(len(pages), 'page')}"
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
    detail = f"DOCX, {plural(text.paragraphs, 'paragraph')}"
    if text.tables:
        detail += f", {plural(text.tables, 'table')}"
    if text.notes:
        detail += f", {plural(text.notes, 'note')}"
    if text.tracked_changes:
        detail += ", tracked changes accepted"
    if text.unread_embedded:
        detail += f", {plural(text.unread_embedded, 'embedded document')} not read (RTF, MHT or Word)"
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
