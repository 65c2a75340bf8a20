"""Fixtures built in code: small PDFs, DOCX files and ZIP archives, and small files that unpack into huge ones."""

import io
import re
import struct
import zipfile
import zlib

import docx
from fpdf import FPDF

from workloads.documents.extraction import Limits

LIMITS = Limits(max_file_bytes=1024 * 1024, max_archive_members=100, max_archive_bytes=10 * 1024 * 1024)


def make_pdf(*pages: str, user_password: str | None = None) -> bytes:
    """A PDF with one page per argument; an empty string makes a page without any text, like a scan."""
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for page in pages:
        pdf.add_page()
        for line in page.splitlines():
            pdf.cell(text=line)
            pdf.ln()
    if user_password:
        pdf.set_encryption(owner_password="owner", user_password=user_password)
    return bytes(pdf.output())


def make_docx(paragraphs: list[str], table: list[list[str]] | None = None) -> bytes:
    document = docx.Document()
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for row, values in zip(grid.rows, table, strict=True):
            for cell, value in zip(row.cells, values, strict=True):
                cell.text = value
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_WORD_ML = "application/vnd.openxmlformats-officedocument.wordprocessingml"
_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
# A part kind: how its content is wrapped, its relationship type and its content type.
_WORD_PARTS = {
    "footnotes": (f"<w:footnotes {_W}>{{}}</w:footnotes>", f"{_OFFICE}/footnotes", f"{_WORD_ML}.footnotes+xml"),
    "endnotes": (f"<w:endnotes {_W}>{{}}</w:endnotes>", f"{_OFFICE}/endnotes", f"{_WORD_ML}.endnotes+xml"),
    "header": (f"<w:hdr {_W}>{{}}</w:hdr>", f"{_OFFICE}/header", f"{_WORD_ML}.header+xml"),
    "footer": (f"<w:ftr {_W}>{{}}</w:ftr>", f"{_OFFICE}/footer", f"{_WORD_ML}.footer+xml"),
    # Documents embedded whole (w:altChunk r:id="rIdTestN"), as converters from HTML write them.
    "html": ("{}", f"{_OFFICE}/aFChunk", "text/html"),
    "rtf": ("{}", f"{_OFFICE}/aFChunk", "application/rtf"),
}


def make_word(body: str, parts: list[tuple[str, str]] = (), numbering: str | None = None, styles: str = "",
              drop: tuple[str, ...] = ()) -> bytes:
    """A DOCX whose body is the given WordprocessingML, and more parts as (kind, content), the Nth linked from the
    body as rIdTestN; `numbering` replaces the list definitions, `styles` is added to the template's styles, and
    the parts named in `drop` ("numbering.xml") are left out, as some writers leave them.

    The body may use the prefixes the document part declares: w, mc, wps, v, m, r and others.
    """
    with zipfile.ZipFile(io.BytesIO(make_docx([]))) as template:
        members = {info.filename: template.read(info) for info in template.infolist()}
    members["word/document.xml"] = members["word/document.xml"].replace(b"<w:body>", b"<w:body>" + body.encode(), 1)
    members["word/styles.xml"] = members["word/styles.xml"].replace(b"</w:styles>", styles.encode() + b"</w:styles>")
    if numbering is not None:
        members["word/numbering.xml"] = f"<w:numbering {_W}>{numbering}</w:numbering>".encode()
    for name in drop:
        del members[f"word/{name}"]
        members["word/_rels/document.xml.rels"] = re.sub(rb'<Relationship [^>]*Target="%s"/>' % name.encode(), b"",
                                                         members["word/_rels/document.xml.rels"])
        members["[Content_Types].xml"] = re.sub(rb'<Override PartName="/word/%s"[^>]*/>' % name.encode(), b"",
                                                members["[Content_Types].xml"])
    for number, (kind, content) in enumerate(parts, start=1):
        wrapper, reltype, content_type = _WORD_PARTS[kind]
        name = f"{kind}{number}.{'xml' if content_type.endswith('xml') else kind}"
        members[f"word/{name}"] = wrapper.format(content).encode()
        members["word/_rels/document.xml.rels"] = members["word/_rels/document.xml.rels"].replace(
            b"</Relationships>", f'<Relationship Id="rIdTest{number}" Type="{reltype}" Target="{name}"/>'
                                 "</Relationships>".encode())
        members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
            b"</Types>", f'<Override PartName="/word/{name}" ContentType="{content_type}"/></Types>'.encode())
    return make_zip(members)


def make_pdf_form(label: str, value: str, drawn: bool = True) -> bytes:
    """A one-page PDF that prints `label` and has a filled-in text field showing `value` beside it, written by hand
    (fpdf2 makes no forms): the value is drawn by the field's widget, as form fillers save it, not by the page.
    Not `drawn`: the field has no appearance, and the form asks readers to draw it (NeedAppearances)."""
    font = b"<< /Font << /F1 6 0 R >> >>"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /NeedAppearances %s /DR " % (
            b"false" if drawn else b"true") + font + b" >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Annots [4 0 R] /Resources "
        + font + b" >>",
        b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (field) /V (%s) /Rect [150 695 350 715] /P 3 0 R /F 4 "
        b"%s /DA (/F1 12 Tf 0 g) >>" % (value.encode(), b"/AP << /N 7 0 R >>" if drawn else b""),
        _stream(b"BT /F1 12 Tf 72 700 Td (%s) Tj ET" % label.encode()),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        _stream(b"/Tx BMC BT /F1 12 Tf 2 5 Td (%s) Tj ET EMC" % value.encode(),
               b"/Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources " + font),
    ]
    return _pdf(objects)


def make_pdf_fields(fields: list[tuple[str, str]]) -> bytes:
    """A one-page PDF form with a filled-in text field under each label, as web and HTML-to-PDF forms lay them out;
    every widget draws its value, and pdfium flattens them all into one object at the end of the page."""
    font = b"<< /Font << /F1 4 0 R >> >>"
    first_field = 6  # the objects: 1-3 document, 4 font, 5 page content, then a widget and its appearance each
    labels = b"".join(b"BT /F1 12 Tf 72 %d Td (%s) Tj ET\n" % (700 - 40 * n, label.encode())
                      for n, (label, _) in enumerate(fields))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%s] /DR %s >> >>" % (
            b" ".join(b"%d 0 R" % (first_field + 2 * n) for n in range(len(fields))), font),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Annots [%s] /Resources %s >>" % (
            b" ".join(b"%d 0 R" % (first_field + 2 * n) for n in range(len(fields))), font),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        _stream(labels),
    ]
    for n, (_, value) in enumerate(fields):
        objects += [
            b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (field%d) /V (%s) /Rect [72 %d 272 %d] /P 3 0 R /F 4 "
            b"/AP << /N %d 0 R >> /DA (/F1 12 Tf 0 g) >>" % (
                n, value.encode(), 680 - 40 * n, 696 - 40 * n, first_field + 2 * n + 1),
            _stream(b"/Tx BMC BT /F1 12 Tf 2 4 Td (%s) Tj ET EMC" % value.encode(),
                    b"/Type /XObject /Subtype /Form /BBox [0 0 200 16] /Resources " + font),
        ]
    return _pdf(objects)


def make_pdf_choices(boxes: list[tuple[str, bool]], options: list[str], chosen: str) -> bytes:
    """A one-page PDF form, written by hand: a check box before each label of `boxes`, ticked or not, then a group
    of radio buttons, one before each of `options`, the `chosen` one selected. Each widget draws a ZapfDingbats
    mark when on and nothing when off, as form fillers save them."""
    font = b"<< /Font << /F1 4 0 R /ZaDb 5 0 R >> >>"
    marks = 6  # the objects: 1-3 document, 4-5 fonts, 6-7 on and off appearances, 8 page content, then fields
    labels = [label for label, _ in boxes] + options
    content = b"".join(b"BT /F1 12 Tf 92 %d Td (%s) Tj ET\n" % (700 - 20 * line, label.encode())
                       for line, label in enumerate(labels))

    def widget(line: int, on_name: str, ticked: bool, entries: bytes) -> bytes:
        """A 12-point box before the label on `line`, whose appearance named `on_name` draws its mark."""
        return (b"<< /Type /Annot /Subtype /Widget /Rect [72 %d 84 %d] /P 3 0 R /F 4 /AS /%s "
                b"/AP << /N << /%s %d 0 R /Off %d 0 R >> >> %s >>" % (
                    698 - 20 * line, 710 - 20 * line, on_name.encode() if ticked else b"Off", on_name.encode(),
                    marks, marks + 1, entries))

    first_field = 9
    group = first_field + len(boxes) + len(options)
    fields = [widget(line, "Yes", ticked, b"/FT /Btn /T (box%d) /V /%s" % (line, b"Yes" if ticked else b"Off"))
              for line, (_, ticked) in enumerate(boxes)]
    fields += [widget(len(boxes) + n, option, option == chosen, b"/Parent %d 0 R" % group)
               for n, option in enumerate(options)]
    kids = b" ".join(b"%d 0 R" % (first_field + len(boxes) + n) for n in range(len(options)))
    field_refs = b" ".join(b"%d 0 R" % (first_field + n) for n in range(len(boxes))) + b" %d 0 R" % group
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%s] /DR %s >> >>" % (field_refs, font),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 8 0 R /Annots [%s] /Resources %s >>" % (
            b" ".join(b"%d 0 R" % (first_field + n) for n in range(len(fields))), font),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>",
        _stream(b"q BT /ZaDb 10 Tf 1 2 Td (4) Tj ET Q", b"/Type /XObject /Subtype /Form /BBox [0 0 12 12] "
                b"/Resources " + font),
        _stream(b"", b"/Type /XObject /Subtype /Form /BBox [0 0 12 12]"),
        _stream(content),
        *fields,
        b"<< /FT /Btn /Ff 49152 /T (choice) /V /%s /Kids [%s] >>" % (chosen.encode(), kids),
    ]
    return _pdf(objects)


def _stream(data: bytes, entries: bytes = b"") -> bytes:
    return b"<< " + entries + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF file of these objects, numbered from 1, the first the catalog."""
    pdf, offsets = b"%PDF-1.7\n", []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(pdf)
    pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    pdf += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return pdf + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


def make_pdf_bomb(unpacked_bytes: int) -> bytes:
    """A one-page PDF whose one content stream, zlib-compressed, inflates to unpacked_bytes of text operators.

    pdfium keeps an object per operator: 50 MB of them (a 146 KB file) take it about 700 MB.
    """
    operator = b"BT /F1 12 Tf 72 720 Td (Hello world) Tj ET\n"
    chunk = operator * (2**20 // len(operator))
    compressor = zlib.compressobj(9)
    stream = b"".join(compressor.compress(chunk) for _ in range(unpacked_bytes // len(chunk))) + compressor.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(stream), stream),
    ]
    return _pdf(objects)


def make_docx_bomb(paragraphs: int) -> bytes:
    """A Word document of that many short paragraphs: 600,000 make 34 MB of XML in a 140 KB file."""
    body = b"<w:p><w:r><w:t>Lorem ipsum dolor sit amet</w:t></w:r></w:p>" * paragraphs
    with zipfile.ZipFile(io.BytesIO(make_docx([]))) as template:
        parts = {info.filename: template.read(info) for info in template.infolist()}
    parts["word/document.xml"] = parts["word/document.xml"].replace(b"<w:body>", b"<w:body>" + body, 1)
    return make_zip(parts)


def make_zip(members: dict[str, bytes | str], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """Members in insertion order; a name ending in "/" is a directory entry."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in members.items():
            archive.writestr(zipfile.ZipInfo(name), content, compress_type=compression)
    return buffer.getvalue()


def with_part(data: bytes, name: str, edit) -> bytes:
    """The DOCX with one part's XML passed through edit, as a hand-made or converted file might have it."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        parts = {info.filename: package.read(info) for info in package.infolist()}
    parts[name] = edit(parts[name])
    return make_zip(parts)


def make_zip_with_symlink(link: str, target: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo(link)
        info.create_system = 3  # Unix, where the high 16 bits of external_attr hold st_mode
        info.external_attr = 0o120777 << 16  # S_IFLNK | rwxrwxrwx
        archive.writestr(info, target)
        archive.writestr("src/app.py", "print('hi')\n")
    return buffer.getvalue()


def patch_first_member(data: bytes, *, flag_bits: int | None = None, file_size: int | None = None) -> bytes:
    """Rewrite the first member's headers, which zipfile itself would never write wrongly.

    Offsets from the ZIP specification: the local header holds flags at 6 and the uncompressed size at 22,
    the central directory entry holds them at 8 and 24.
    """
    patched = bytearray(data)
    for signature, flags_offset, size_offset in ((b"PK\x03\x04", 6, 22), (b"PK\x01\x02", 8, 24)):
        start = patched.index(signature)
        if flag_bits is not None:
            patched[start + flags_offset : start + flags_offset + 2] = struct.pack("<H", flag_bits)
        if file_size is not None:
            patched[start + size_offset : start + size_offset + 4] = struct.pack("<I", file_size)
    return bytes(patched)


def by_name(entries) -> dict:
    return {entry.name: entry for entry in entries}
