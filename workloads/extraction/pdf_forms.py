"""A PDF form's check boxes and radio buttons as text: "[x] Insured", "[ ] Uninsured", "(x) Monthly".

A box's state lives in its widget, not on the page: flattening draws a ticked box's mark (a ZapfDingbats glyph,
read on a line of its own) and an empty box as nothing, so "which option was chosen?" had no answer. Each box is
replaced here, in memory, by its state written as text where the box stands. pdfium reads a page's text in the
order of its objects, so the mark goes in just before the text that begins to the right of the box on its line,
its label, and reads beside it. pypdfium2 has no helpers for this, hence its raw pdfium calls.
"""

from __future__ import annotations

import ctypes

import pypdfium2
import pypdfium2.raw as pdfium

_MARKS = {pdfium.FPDF_FORMFIELD_CHECKBOX: ("[ ]", "[x]"), pdfium.FPDF_FORMFIELD_RADIOBUTTON: ("( )", "(x)")}


def write_choices(document: pypdfium2.PdfDocument, page: pypdfium2.PdfPage) -> int:
    """Write each check box's and radio button's state on the page and remove its widget; how many there were."""
    boxes = _take_boxes(document, page)
    if not boxes:
        return 0
    texts = _text_bounds(page)
    # Inserted from the last position back, so that each insertion leaves the positions before it as they were.
    placed = sorted(((_label_index(rect, texts), rect, mark) for rect, mark in boxes), key=lambda p: -p[0])
    for index, rect, mark in placed:
        text = _text_object(document, rect, mark)
        if not pdfium.FPDFPage_InsertObjectAtIndex(page.raw, text, index):
            pdfium.FPDFPage_InsertObject(page.raw, text)  # the page owns it either way
    pdfium.FPDFPage_GenerateContent(page.raw)  # so that flattening, which rewrites the content, keeps them
    return len(boxes)


def _take_boxes(document: pypdfium2.PdfDocument, page: pypdfium2.PdfPage) -> list[tuple[pdfium.FS_RECTF, str]]:
    """Each check box's and radio button's place and mark, its widget removed from the page."""
    boxes = []
    for index in reversed(range(pdfium.FPDFPage_GetAnnotCount(page.raw))):  # removing shifts the later ones
        annot = pdfium.FPDFPage_GetAnnot(page.raw, index)
        try:
            marks = _MARKS.get(pdfium.FPDFAnnot_GetFormFieldType(document.formenv.raw, annot))
            if marks:
                rect = pdfium.FS_RECTF()
                pdfium.FPDFAnnot_GetRect(annot, rect)
                boxes.append((rect, marks[bool(pdfium.FPDFAnnot_IsChecked(document.formenv.raw, annot))]))
        finally:
            pdfium.FPDFPage_CloseAnnot(annot)
        if marks:
            pdfium.FPDFPage_RemoveAnnot(page.raw, index)
    return boxes


def _text_bounds(page: pypdfium2.PdfPage) -> list[tuple[int, float, float, float]]:
    """(index, left, bottom, top) of each text object on the page."""
    bounds = []
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    for index in range(pdfium.FPDFPage_CountObjects(page.raw)):
        obj = pdfium.FPDFPage_GetObject(page.raw, index)
        if pdfium.FPDFPageObj_GetType(obj) == pdfium.FPDF_PAGEOBJ_TEXT and pdfium.FPDFPageObj_GetBounds(
                obj, left, bottom, right, top):
            bounds.append((index, left.value, bottom.value, top.value))
    return bounds


def _label_index(rect: pdfium.FS_RECTF, texts: list[tuple[int, float, float, float]]) -> int:
    """The index of the nearest text that begins to the right of the box on its line; the end of the page's
    objects when there is none."""
    on_line = [(left, index) for index, left, bottom, top in texts
               if left >= rect.left and bottom < rect.top and top > rect.bottom]
    return min(on_line)[1] if on_line else (texts[-1][0] + 1 if texts else 0)


def _text_object(document: pypdfium2.PdfDocument, rect: pdfium.FS_RECTF, mark: str):
    size = max(4.0, min(12.0, rect.top - rect.bottom))  # about the box's height, readable either way
    text = pdfium.FPDFPageObj_NewTextObj(document.raw, b"Helvetica", ctypes.c_float(size))
    encoded = (mark + "\0").encode("utf-16-le")  # FPDF_WIDESTRING: NUL-terminated UTF-16LE
    pdfium.FPDFText_SetText(text, ctypes.cast(ctypes.create_string_buffer(encoded, len(encoded)),
                                              pdfium.FPDF_WIDESTRING))
    pdfium.FPDFPageObj_Transform(text, 1, 0, 0, 1, rect.left, rect.bottom)
    return text
