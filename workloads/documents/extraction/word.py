"""The text of a Word document as its reader sees it: tracked changes accepted, hidden text left out, list numbers
drawn (numbering.py), and the text of content controls, fields, text boxes, equations, embedded HTML, footnotes,
endnotes, headers and footers kept, with symbols (symbols.py) and legacy form fields' check boxes and choices.

python-docx's Paragraph.text reads only a paragraph's direct runs and hyperlinks: it drops a tracked insertion, a
content control's text (a template's party names and dates), a field's result and a text box. Its
Document.iter_inner_content skips a content control that holds whole paragraphs, and it has no notes at all. So
this module walks the XML of python-docx's parts itself, leaving out only what a reader does not see.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import lxml.html
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.part import XmlPart
from docx.oxml import parse_xml
from docx.oxml.ns import qn
from lxml import etree

from .numbering import ListNumbers
from .styles import inherited
from .symbols import symbol

_P, _TBL, _TR, _TC, _R, _TEXT_BOX = (qn(tag) for tag in ("w:p", "w:tbl", "w:tr", "w:tc", "w:r", "w:txbxContent"))
_MATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_MATH_RUN, _MATH_TEXT = _MATH + "r", _MATH + "t"
_ALT_CHUNK, _RELATIONSHIP = qn("w:altChunk"), qn("r:id")
_NOTE_REFERENCES = {qn("w:footnoteReference"): "footnote", qn("w:endnoteReference"): "endnote"}
_CHANGES = {qn(tag) for tag in ("w:ins", "w:del", "w:moveTo", "w:moveFrom")}
# Never walked: deleted and moved-away text, the second copy of alternate content (Word writes a text box twice,
# for new and old readers), the small reading printed over East Asian characters (ruby text: its base is read),
# and properties, which hold no text of their own.
_HIDDEN = {qn(tag) for tag in ("w:del", "w:moveFrom", "w:pPr", "w:rPr", "w:rt", "w:sdtPr", "w:sdtEndPr", "w:tblPr",
                                 "w:trPr", "w:tcPr", "w:sectPr")}
_HIDDEN.add("{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback")
# Word's separators between the page and its notes are notes too, with a type; real notes have none.
_NOTE_TYPE = qn("w:type")
_ID = qn("w:id")
_DELETED_MARK = f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:del')}"
_VANISH = f"{qn('w:rPr')}/{qn('w:vanish')}"
_VAL = qn("w:val")
_PARAGRAPH_STYLE = f"{qn('w:pPr')}/{qn('w:pStyle')}"
_NOTE_MARKS = {"footnote": "{}", "endnote": "E{}"}
# A run's content python-docx turns into text (Run.text), read here in order with what it leaves out.
_RUN_TEXT = {qn(tag) for tag in ("w:t", "w:tab", "w:cr", "w:noBreakHyphen", "w:ptab")}
_BREAK = qn("w:br")
_SYM, _FIELD_CHAR = qn("w:sym"), qn("w:fldChar")


@dataclass
class WordText:
    lines: list[str] = field(default_factory=list)
    paragraphs: int = 0  # non-empty paragraphs outside tables
    tables: int = 0
    notes: int = 0
    tracked_changes: bool = False
    unread_embedded: int = 0  # documents embedded in a format this reader does not take (RTF, MHT, DOCX)


class DeclaredEntity(ValueError):
    """A part uses an entity declared in a DTD: python-docx keeps it as a node, and the text around it would be cut."""


def read_word(document) -> WordText:
    """The body's lines in order, then its footnotes and endnotes, then each distinct header and footer."""
    # Many writers leave out the numbering part of a document without lists, and some the styles part.
    numbering, styles = (_part_element(document, reltype) for reltype in (RT.NUMBERING, RT.STYLES))
    reader = _Reader(document, ListNumbers(numbering, styles), _Hiding(styles))
    result = reader.result
    result.lines.extend(reader.blocks(_element(document.part).body, count=True))
    for kind in ("footnote", "endnote"):
        result.lines.extend(reader.notes(document, kind))
    result.lines.extend(reader.headers_and_footers(document))
    return result


class _Reader:
    def __init__(self, document, lists: ListNumbers, hiding: _Hiding):
        self.result = WordText()
        self.document, self.lists, self.hiding = document, lists, hiding
        # Each kind's note ids in the order the text refers to them: their numbers on the page.
        self.numbers: dict[str, dict[str, int]] = {kind: {} for kind in _NOTE_MARKS}

    def blocks(self, container, count: bool = False) -> Iterator[str]:
        """The lines of the paragraphs and tables in a container (a body, a cell, a note, a text box)."""
        for child in container:
            if child.tag == _P:
                own, *boxes = self.paragraph(child)
                if count and own.strip():
                    self.result.paragraphs += 1
                yield own
                yield from boxes
            elif child.tag == _TBL:
                self.result.tables += 1
                yield from self.table(child)
            elif child.tag == _ALT_CHUNK:
                yield from self.embedded(child)
            elif child.tag in _CHANGES:
                self.result.tracked_changes = True
                if child.tag not in _HIDDEN:
                    yield from self.blocks(child, count)
            elif child.tag not in _HIDDEN:  # a content control, custom XML: containers of blocks
                yield from self.blocks(child, count)

    def embedded(self, chunk) -> list[str]:
        """The lines of a document embedded whole (w:altChunk), as converters from HTML write them; Word shows it
        where it stands. HTML and plain text are read; other formats are counted, for the detail to say so."""
        rel = self.document.part.rels.get(chunk.get(_RELATIONSHIP))
        content_type = "" if rel is None or rel.is_external else rel.target_part.content_type
        if content_type in ("text/html", "application/xhtml+xml"):
            return _html_lines(rel.target_part.blob)
        if content_type == "text/plain":
            return rel.target_part.blob.decode("utf-8", errors="replace").splitlines()
        self.result.unread_embedded += 1
        return []

    def paragraph(self, p) -> list[str]:
        """The paragraph's own text, then the lines of the text boxes anchored in it."""
        runs, boxes = [], []
        self._collect(p, runs, boxes)
        style = p.find(_PARAGRAPH_STYLE)
        text = "".join(self.run_text(r, None if style is None else style.get(_VAL)) for r in runs)
        # A paragraph whose mark and text were deleted (a tracked deletion) is gone once changes are accepted.
        label = "" if p.find(_DELETED_MARK) is not None and not text.strip() else self.lists.label(p)
        if label and text.strip():
            # Breaks opening the paragraph go before its number, which stays with the text: "\n2. Prices", not
            # "2. \nPrices"; blank space there would only pad the number.
            body = text.lstrip()
            text = "\n" * text[:len(text) - len(body)].count("\n") + f"{label} {body}"
        lines = [text]
        for box in boxes:
            lines.extend(self.blocks(box))
        return lines

    def _collect(self, element, runs: list, boxes: list) -> None:
        # Runs sit in hyperlinks, insertions, content controls, fields and smart tags, at any depth.
        for child in element:
            if child.tag in _CHANGES:
                self.result.tracked_changes = True
            if child.tag in _HIDDEN:
                continue
            if child.tag == _TEXT_BOX:
                boxes.append(child)
                continue
            if child.tag in (_R, _MATH_RUN):
                runs.append(child)
            self._collect(child, runs, boxes)  # a run's drawing may hold a text box

    def run_text(self, r, paragraph_style: str | None) -> str:
        if r.tag == _MATH_RUN:  # an equation's run: its text, linear ("x=1", "a/b" as "ab")
            return "".join(t.text or "" for t in r.iter(_MATH_TEXT))
        if self.hiding.hides(r.rPr, paragraph_style):
            return ""  # hidden text: drafting notes and instructions Word does not show or print
        pieces = []
        for child in r:  # field codes (w:instrText) and deleted text are left out
            if child.tag == _BREAK:
                pieces.append("\n")  # python-docx reads a page or column break as "", gluing the words it parts
            elif child.tag in _RUN_TEXT:
                pieces.append(str(child))  # python-docx's text of it: a tab is "\t"
            elif child.tag == _SYM:
                pieces.append(symbol(child.get(qn("w:font")), child.get(qn("w:char"))))
            elif kind := _NOTE_REFERENCES.get(child.tag):
                numbers = self.numbers[kind]
                number = numbers.setdefault(child.get(_ID), len(numbers) + 1)
                pieces.append(f"[{_NOTE_MARKS[kind].format(number)}]")
            elif child.tag == _FIELD_CHAR:
                pieces.append(_form_field(child))
        return "".join(pieces)

    def table(self, tbl) -> Iterator[str]:
        for row in _descendants(tbl, _TR, stop=_TBL):
            cells = [" ".join(filter(str.strip, self.blocks(cell))) for cell in _descendants(row, _TC, stop=_TR)]
            yield " | ".join(cells)

    def notes(self, document, kind: str) -> Iterator[str]:
        """The notes the text refers to, in the order of their numbers."""
        numbers = self.numbers[kind]
        parts = _related_parts(document, RT.FOOTNOTES if kind == "footnote" else RT.ENDNOTES)
        if not parts or not numbers:
            return
        notes = {note.get(_ID): note for note in _element(parts[0]) if note.get(_NOTE_TYPE) is None}
        texts = {}
        # Reading a note may refer to another note (numbered after the body's): read until none is left unread.
        while unread := [note_id for note_id in numbers if note_id not in texts]:
            for note_id in unread:
                note = notes.get(note_id)
                # A note's text starts after its own mark and a space Word puts there: read without it.
                texts[note_id] = "" if note is None else " ".join(
                    line.strip() for line in self.blocks(note) if line.strip())
        yield f"{kind.capitalize()}s:"
        for note_id, number in numbers.items():
            yield f"[{_NOTE_MARKS[kind].format(number)}] {texts[note_id]}".rstrip()
        self.result.notes += sum(note_id in notes for note_id in numbers)

    def headers_and_footers(self, document) -> Iterator[str]:
        """Each distinct header and footer once: a first-page and a default header often say the same."""
        seen = set()
        for reltype, label in ((RT.HEADER, "Header"), (RT.FOOTER, "Footer")):
            for part in _related_parts(document, reltype):
                text = " ".join(line.strip() for line in self.blocks(_element(part)) if line.strip())
                if text and (label, text) not in seen:
                    seen.add((label, text))
                    yield f"{label}: {text}"


# HTML elements that begin a line of their own; a table's cells are parted as Word tables' are, by " | ".
_HTML_BLOCKS = {"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
                "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section",
                "table", "tr", "ul"}


def _html_lines(html: bytes) -> list[str]:
    """An embedded HTML document's text, a line per heading, paragraph, list item and table row: lxml's
    text_content() alone runs them together ("AnnexFirst paragraph.")."""
    page = lxml.html.document_fromstring(html)
    for hidden in page.xpath("//script | //style | //head"):
        hidden.drop_tree()
    for element in page.iter():
        if element.tag in _HTML_BLOCKS:
            element.tail = "\n" + (element.tail or "")
            element.text = "\n" + (element.text or "")
        elif element.tag in ("td", "th"):
            element.tail = " | " + (element.tail or "")
    lines = (line.strip().removesuffix(" |").strip() for line in page.text_content().splitlines())
    return [line for line in lines if line]


def _form_field(field_char) -> str:
    """What a legacy form field (Word's Developer > Legacy Tools) shows that is not in the text: a check box's
    state and a drop-down's choice, kept in the field's start. A text field's value is its result, read already."""
    data = field_char.find(qn("w:ffData"))
    if data is None:
        return ""
    if (box := data.find(qn("w:checkBox"))) is not None:
        checked = box.find(qn("w:checked"))
        if checked is None:
            checked = box.find(qn("w:default"))
        return "☒" if checked is not None and _on(checked) else "☐"
    if (choices := data.find(qn("w:ddList"))) is not None:
        entries = [entry.get(_VAL, "") for entry in choices.iterchildren(qn("w:listEntry"))]
        chosen = choices.find(qn("w:result"))
        if chosen is None:
            chosen = choices.find(qn("w:default"))
        index = "0" if chosen is None else chosen.get(_VAL, "0")
        return entries[int(index)] if index.isdecimal() and int(index) < len(entries) else ""
    return ""


def _on(element) -> bool:
    """A Word on/off property: present means on, unless its w:val says otherwise."""
    return element.get(_VAL, "true") not in ("0", "false", "off")


class _Hiding:
    """Whether a run is hidden: by its own properties (w:vanish, which may also unhide), else by its character
    style, else by its paragraph's style, each style as the styles it is based on leave it."""

    def __init__(self, styles):
        def own(style):
            mark = style.find(_VANISH)
            return None if mark is None else _on(mark)

        self.character = inherited(styles, "character", own)
        self.paragraph = inherited(styles, "paragraph", own)

    def hides(self, rPr, paragraph_style: str | None) -> bool:
        if rPr is not None and rPr.vanish is not None:
            return bool(rPr.vanish.val)
        if rPr is not None and rPr.style in self.character:
            return self.character[rPr.style]
        return self.paragraph.get(paragraph_style, False)


def _descendants(element, tag: str, stop: str) -> Iterator:
    """The `tag` elements under element, through content controls and the like, not into a nested `stop`."""
    for child in element:
        if child.tag == tag:
            yield child
        elif child.tag != stop and child.tag not in _HIDDEN:
            yield from _descendants(child, tag, stop)


def _related_parts(document, reltype: str) -> list:
    """The document's parts of one type, in the order of their names (header1.xml, header2.xml...)."""
    parts = [rel.target_part for rel in document.part.rels.values() if rel.reltype == reltype and not rel.is_external]
    return sorted(parts, key=lambda part: (len(part.partname), part.partname))


def _part_element(document, reltype: str):
    parts = _related_parts(document, reltype)
    return _element(parts[0]) if parts else None


def _element(part):
    """The part's XML, refused if it uses an entity declared in its own DTD.

    python-docx parses with resolve_entities=False, so such an entity stays a node of its own, and a run's text
    stops before it: "Price:&nbsp;12.50 net" would read "Price:". Office Open XML forbids DTDs in its parts
    (ECMA-376 Part 2, M1.18) and Word never writes one; only hand-made or converted files have them.
    """
    # python-docx parses the parts it knows (the document, headers, footers); notes reach it as bytes.
    element = part.element if isinstance(part, XmlPart) else parse_xml(part.blob)
    entity = next(element.iter(etree.Entity), None)
    if entity is not None:
        raise DeclaredEntity(f"{part.partname.lstrip('/')} uses the entity {entity.text} (line {entity.sourceline}), "
                             "declared in a DTD, which Word documents may not contain")
    return element
