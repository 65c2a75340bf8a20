"""A PDF form's fields read beside their labels: "Customer name: Müller GmbH", "[x] Insured", "(x) Monthly".

A field's value and a box's state live in its widget, not on the page. Flattening draws each widget onto the page,
but at the end of its content, and pdfium reads a page's text in the order of its objects: every value came last,
far from its label, and two values on a line ran together. So each flattened value is moved to where it reads,
beside the text on its line; and since a flattened box draws a ticked mark as a glyph of its own ("✔") and an empty
one as nothing, each check box and radio button is first replaced by its state written as text, "[x]" or "[ ]".
pypdfium2 has no helpers for this, hence its raw pdfium calls.
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
    texts = _text_bounds(page, pdfium.FPDFPage_CountObjects(page.raw))
    _insert(page, [(_reading_index(_bounds(rect), texts), _text_object(document, rect, mark)) for rect, mark in boxes])
    pdfium.FPDFPage_GenerateContent(page.raw)  # so that flattening, which rewrites the content, keeps them
    return len(boxes)


def place_flattened(page: pypdfium2.PdfPage, first: int) -> None:
    """Move the widgets flattening drew (in the objects from index `first` on) to where they read."""
    texts = _text_bounds(page, first)
    _insert(page, [(_reading_index(bounds, texts) if (bounds := _object_bounds(widget)) else None, widget)
                   for widget in _flattened_widgets(page, first)])


def _flattened_widgets(page: pypdfium2.PdfPage, first: int) -> list:
    """The objects flattening appended, taken off the page: pdfium draws all of a page's widgets in one form
    object, so its objects, one per widget, are taken out of it and put in the page's coordinates."""
    appended = [pdfium.FPDFPage_GetObject(page.raw, index)
                for index in range(first, pdfium.FPDFPage_CountObjects(page.raw))]
    widgets = []
    for obj in appended:
        pdfium.FPDFPage_RemoveObject(page.raw, obj)
        if pdfium.FPDFPageObj_GetType(obj) != pdfium.FPDF_PAGEOBJ_FORM:
            widgets.append(obj)
            continue
        matrix = pdfium.FS_MATRIX()
        pdfium.FPDFPageObj_GetMatrix(obj, matrix)
        for index in reversed(range(pdfium.FPDFFormObj_CountObjects(obj))):
            widget = pdfium.FPDFFormObj_GetObject(obj, index)
            if pdfium.FPDFFormObj_RemoveObject(obj, widget):
                pdfium.FPDFPageObj_Transform(widget, matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)
                widgets.append(widget)
        pdfium.FPDFPageObj_Destroy(obj)
    return widgets


def _insert(page: pypdfium2.PdfPage, placed: list[tuple[int | None, object]]) -> None:
    """Insert objects at their indices, the page owning them from here: the highest index first, so that each
    insertion leaves the indices below it as they were; one without an index, or refused its index, at the end."""
    for index, obj in sorted(placed, key=lambda p: (p[0] is not None, -(p[0] or 0))):
        if index is None or not pdfium.FPDFPage_InsertObjectAtIndex(page.raw, obj, index):
            pdfium.FPDFPage_InsertObject(page.raw, obj)


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


def _text_bounds(page: pypdfium2.PdfPage, count: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(index, (left, bottom, right, top)) of each text object among the page's first `count` objects."""
    bounds = []
    for index in range(count):
        obj = pdfium.FPDFPage_GetObject(page.raw, index)
        if pdfium.FPDFPageObj_GetType(obj) == pdfium.FPDF_PAGEOBJ_TEXT and (box := _object_bounds(obj)):
            bounds.append((index, box))
    return bounds


def _object_bounds(obj) -> tuple[float, float, float, float] | None:
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not pdfium.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
        return None
    return left.value, bottom.value, right.value, top.value


def _bounds(rect: pdfium.FS_RECTF) -> tuple[float, float, float, float]:
    # Some writers give a widget's corners in another order (bottom above top).
    (left, right), (bottom, top) = sorted((rect.left, rect.right)), sorted((rect.bottom, rect.top))
    return left, bottom, right, top


def _reading_index(box: tuple[float, float, float, float], texts: list) -> int | None:
    """Where an object at `box` reads among the page's text objects: before the nearest text that begins to its
    right on its line (a box's label), else after the nearest to its left (a field's label); on a line of its own,
    before the nearest text below it (a field under its label); None when there is none."""
    left, bottom, _, top = box
    on_line = [(text_left, index) for index, (text_left, text_bottom, _, text_top) in texts
               if text_bottom < top and text_top > bottom]
    if right := [text for text in on_line if text[0] >= left]:
        return min(right)[1]
    if on_line:
        return max(on_line)[1] + 1
    below = [(text_top, index) for index, (_, _, _, text_top) in texts if text_top <= bottom]
    return max(below)[1] if below else None


def _text_object(document: pypdfium2.PdfDocument, rect: pdfium.FS_RECTF, mark: str):
    size = max(4.0, min(12.0, rect.top - rect.bottom))  # about the box's height, readable either way
    text = pdfium.FPDFPageObj_NewTextObj(document.raw, b"Helvetica", ctypes.c_float(size))
    encoded = (mark + "\0").encode("utf-16-le")  # FPDF_WIDESTRING: NUL-terminated UTF-16LE
    pdfium.FPDFText_SetText(text, ctypes.cast(ctypes.create_string_buffer(encoded, len(encoded)),
                                              pdfium.FPDF_WIDESTRING))
    pdfium.FPDFPageObj_Transform(text, 1, 0, 0, 1, rect.left, rect.bottom)
    return text
