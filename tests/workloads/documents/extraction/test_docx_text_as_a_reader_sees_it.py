"""A Word document's text is what its reader sees: python-docx's paragraph text alone dropped each of these."""

from workloads.documents.extraction import extract_file

from .builders import LIMITS, make_word, with_part


def run(text: str) -> str:
    return f"<w:r><w:t xml:space='preserve'>{text}</w:t></w:r>"


def paragraph(*content: str) -> str:
    return f"<w:p>{''.join(content)}</w:p>"


def extract(body: str, parts: list[tuple[str, str]] = (), **word):
    [entry] = extract_file("contract.docx", make_word(body, parts, **word), LIMITS)
    assert entry.kept, entry.detail
    return entry


def test_tracked_changes_are_read_accepted():
    change = "w:id='{}' w:author='Counsel' w:date='2026-01-05T10:00:00Z'"
    body = paragraph(run("The notice period is "),
                     f"<w:del {change.format(1)}><w:r><w:delText>30 days</w:delText></w:r></w:del>",
                     f"<w:ins {change.format(2)}>{run('90 days')}</w:ins>", run("."))
    moved = (f"<w:moveFrom {change.format(3)}>{run('Governed by Ohio law.')}</w:moveFrom>"
             f"<w:moveTo {change.format(4)}>{run('Governed by Delaware law.')}</w:moveTo>")

    entry = extract(body + paragraph(moved))

    assert entry.text == "The notice period is 90 days.\nGoverned by Delaware law."
    assert entry.detail == "DOCX, 2 paragraphs, tracked changes accepted"


def test_hidden_text_is_left_out():
    def formatted(text: str, vanish: str) -> str:
        return f"<w:r><w:rPr>{vanish}</w:rPr><w:t xml:space='preserve'>{text}</w:t></w:r>"

    body = paragraph(run("Payment within 30 days."), formatted(" [Drafting note: ask for 60.]", "<w:vanish/>"),
                     formatted(" Interest accrues after.", "<w:vanish w:val='0'/>"))

    assert extract(body).text == "Payment within 30 days. Interest accrues after."


def test_text_hidden_by_its_character_style_is_left_out():
    styles = ('<w:style w:type="character" w:styleId="Note"><w:name w:val="Note"/><w:rPr><w:vanish/></w:rPr>'
              '</w:style><w:style w:type="character" w:styleId="Aside"><w:name w:val="Aside"/>'
              '<w:basedOn w:val="Note"/></w:style>')

    def styled_run(style: str, text: str, vanish: str = "") -> str:
        return f"<w:r><w:rPr><w:rStyle w:val='{style}'/>{vanish}</w:rPr><w:t xml:space='preserve'>{text}</w:t></w:r>"

    body = paragraph(run("Rent is due monthly."), styled_run("Note", " [check the rate]"),
                     styled_run("Aside", " [and the index]"),  # hidden through the style it is based on
                     styled_run("Note", " Late fees apply.", "<w:vanish w:val='0'/>"))  # unhidden directly

    assert extract(body, styles=styles).text == "Rent is due monthly. Late fees apply."


def test_content_controls_and_fields_keep_their_text():
    control = "<w:sdt><w:sdtPr><w:alias w:val='{}'/></w:sdtPr><w:sdtContent>{}</w:sdtContent></w:sdt>"
    block = control.format("Parties", paragraph(run("Between Acme Ltd and Globex plc")))
    inline = paragraph(run("Effective date: "), control.format("Date", run("1 March 2026")))
    simple_field = paragraph(run("Printed "), f"<w:fldSimple w:instr='DATE'>{run('2026-03-01')}</w:fldSimple>")
    complex_field = paragraph(run("Page "), "<w:r><w:fldChar w:fldCharType='begin'/></w:r>",
                              "<w:r><w:instrText> PAGE </w:instrText></w:r>",
                              "<w:r><w:fldChar w:fldCharType='separate'/></w:r>", run("4"),
                              "<w:r><w:fldChar w:fldCharType='end'/></w:r>")

    entry = extract(block + inline + simple_field + complex_field)

    assert entry.text == "Between Acme Ltd and Globex plc\nEffective date: 1 March 2026\nPrinted 2026-03-01\nPage 4"
    assert entry.detail == "DOCX, 4 paragraphs"


def test_a_text_box_is_read_once_after_its_paragraph():
    # Word writes a text box twice: a DrawingML shape, and a VML copy for readers that predate it.
    box = paragraph(run("Liability is capped at $1M."))
    shape = (f"<w:r><mc:AlternateContent><mc:Choice Requires='wps'><w:drawing><wps:txbx><w:txbxContent>{box}"
             f"</w:txbxContent></wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox><w:txbxContent>"
             f"{box}</w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r>")

    entry = extract(paragraph(run("Summary"), shape) + paragraph(run("Terms follow.")))

    assert entry.text == "Summary\nLiability is capped at $1M.\nTerms follow."


def test_footnotes_and_endnotes_follow_the_text_numbered_as_it_refers_to_them():
    def reference(kind: str, note_id: int) -> str:
        return f"<w:r><w:{kind}Reference w:id='{note_id}'/></w:r>"

    def notes(kind: str, texts: dict[int, str]) -> str:
        separators = f"<w:{kind} w:type='separator' w:id='-1'>{paragraph('<w:r><w:separator/></w:r>')}</w:{kind}>"
        return separators + "".join(f"<w:{kind} w:id='{note_id}'>{paragraph(f'<w:r><w:{kind}Ref/></w:r>', run(t))}"
                                    f"</w:{kind}>" for note_id, t in texts.items())

    # Note ids need not follow the page's order: the text's references number them.
    body = (paragraph(run("Fees are fixed"), reference("footnote", 7), run(" for two years"), reference("footnote", 3))
            + paragraph(run("See the schedule"), reference("endnote", 2)))
    footnotes = notes("footnote", {3: "Renewal at list price.", 7: "Excluding VAT.", 9: "Never referred to."})

    entry = extract(body, [("footnotes", footnotes), ("endnotes", notes("endnote", {2: "Schedule A, page 9."}))])

    assert entry.text == ("Fees are fixed[1] for two years[2]\nSee the schedule[E1]\n"
                          "Footnotes:\n[1] Excluding VAT.\n[2] Renewal at list price.\n"
                          "Endnotes:\n[E1] Schedule A, page 9.")
    assert entry.detail == "DOCX, 2 paragraphs, 3 notes"


def test_each_distinct_header_and_footer_is_read_once():
    confidential = paragraph(run("CONFIDENTIAL"))
    parts = [("header", confidential), ("header", confidential), ("footer", paragraph(run("Acme Ltd, page 1"))),
             ("footer", paragraph())]

    entry = extract(paragraph(run("Terms.")), parts)

    assert entry.text == "Terms.\nHeader: CONFIDENTIAL\nFooter: Acme Ltd, page 1"


def test_table_cells_keep_nested_tables_and_rows_inside_content_controls():
    def table(*rows: str) -> str:
        return f"<w:tbl>{''.join(rows)}</w:tbl>"

    def row(*cells: str) -> str:
        return "<w:tr>" + "".join(f"<w:tc>{cell}</w:tc>" for cell in cells) + "</w:tr>"

    nested = table(row(paragraph(run("Lamp")), paragraph(run("12.50"))))
    desk = row(paragraph(run("Desk")), paragraph(run("80")))
    repeating = f"<w:sdt><w:sdtPr/><w:sdtContent>{desk}</w:sdtContent></w:sdt>"  # a repeating section's row
    outer = table(row(paragraph(run("Items")), nested + paragraph()), repeating)

    entry = extract(outer)

    assert entry.text == "Items | Lamp | 12.50\nDesk | 80"
    assert entry.detail == "DOCX, 0 paragraphs, 2 tables"


def test_an_entity_declared_in_a_notes_part_is_refused_naming_it():
    body = paragraph(run("Fees"), "<w:r><w:footnoteReference w:id='1'/></w:r>")
    data = make_word(body, [("footnotes", f"<w:footnote w:id='1'>{paragraph(run('Excluding VAT'))}</w:footnote>")])

    def declared(xml: bytes) -> bytes:
        return b'<!DOCTYPE w:footnotes [<!ENTITY nbsp "&#160;">]>\n' + xml.replace(b"g VAT", b"g&nbsp;VAT")

    [entry] = extract_file("contract.docx", with_part(data, "word/footnotes1.xml", declared), LIMITS)

    assert not entry.kept
    assert entry.detail == ("corrupt DOCX: word/footnotes1.xml uses the entity &nbsp; (line 2), declared in a DTD, "
                            "which Word documents may not contain")


# A contract's clause numbering: 1. / 1.1 / (a), the first two levels drawn by heading styles linked to them.
def level(ilvl: int, fmt: str, text: str, style: str = "") -> str:
    linked = f'<w:pStyle w:val="{style}"/>' if style else ""
    return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>{linked}'
            f'<w:lvlText w:val="{text}"/></w:lvl>')


CLAUSES = (
    '<w:abstractNum w:abstractNumId="7">' + level(0, "decimal", "%1.", "Clause")
    + level(1, "decimal", "%1.%2", "SubClause") + level(2, "lowerLetter", "(%3)") + "</w:abstractNum>"
    + '<w:abstractNum w:abstractNumId="8">' + level(0, "upperRoman", "Schedule %1") + "</w:abstractNum>"
    + '<w:num w:numId="3"><w:abstractNumId w:val="7"/></w:num><w:num w:numId="4"><w:abstractNumId w:val="8"/></w:num>'
    + '<w:num w:numId="5"><w:abstractNumId w:val="8"/>'
    + '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>')
CLAUSE_STYLES = (
    '<w:style w:type="paragraph" w:styleId="Clause"><w:name w:val="Clause"/>'
    '<w:pPr><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="SubClause"><w:name w:val="Sub-clause"/><w:basedOn w:val="Clause"/>'
    "</w:style>")


def styled(style: str, text: str) -> str:
    return paragraph(f"<w:pPr><w:pStyle w:val='{style}'/></w:pPr>", run(text))


def listed(num_id: int, level: int, text: str) -> str:
    return paragraph(f"<w:pPr><w:numPr><w:ilvl w:val='{level}'/><w:numId w:val='{num_id}'/></w:numPr></w:pPr>",
                     run(text))


def test_list_numbers_are_drawn_as_word_draws_them():
    body = (styled("Clause", "Definitions") + styled("SubClause", "Terms have these meanings.")
            + listed(3, 2, "Goods: the lamps.") + listed(3, 2, "Price: 12.50 each.")
            + styled("SubClause", "Notices go to the addresses above.") + styled("Clause", "Payment")
            + styled("SubClause", "Within 30 days.")
            + listed(4, 0, "Prices") + listed(4, 0, "Places")
            + listed(5, 0, "Restarted")  # a second list of the same definition, told to start again
            + paragraph("<w:pPr><w:pStyle w:val='Clause'/><w:numPr><w:numId w:val='0'/></w:numPr></w:pPr>",
                        run("Signed")))  # numId 0: not numbered, whatever its style says

    entry = extract(body, numbering=CLAUSES, styles=CLAUSE_STYLES)

    assert entry.text.split("\n") == [
        "1. Definitions", "1.1 Terms have these meanings.", "(a) Goods: the lamps.", "(b) Price: 12.50 each.",
        "1.2 Notices go to the addresses above.", "2. Payment", "2.1 Within 30 days.",
        "Schedule I Prices", "Schedule II Places", "Schedule I Restarted", "Signed"]


def test_a_page_break_opening_a_numbered_paragraph_comes_before_its_number():
    page_break = "<w:r><w:br w:type='page'/></w:r>"
    body = styled("Clause", "Definitions") + paragraph(
        "<w:pPr><w:pStyle w:val='Clause'/></w:pPr>", page_break, run("Prices")) + paragraph(
        "<w:pPr><w:pStyle w:val='Clause'/></w:pPr>", run(" "), page_break, run(" Places"))

    entry = extract(body, numbering=CLAUSES, styles=CLAUSE_STYLES)

    assert entry.text.split("\n") == ["1. Definitions", "", "2. Prices", "", "3. Places"]


def test_a_list_linked_to_a_list_style_is_numbered_by_the_styles_definition():
    # Legal templates' multilevel lists: the list used in the text (numId 21) hands its levels to a list style,
    # whose own list (numId 20) holds them.
    numbering = ('<w:abstractNum w:abstractNumId="10"><w:styleLink w:val="LegalList"/>'
                 + level(0, "decimal", "Article %1") + level(1, "decimal", "%1.%2") + "</w:abstractNum>"
                 + '<w:abstractNum w:abstractNumId="11"><w:numStyleLink w:val="LegalList"/></w:abstractNum>'
                 + '<w:abstractNum w:abstractNumId="12"><w:numStyleLink w:val="Missing"/></w:abstractNum>'
                 + '<w:abstractNum w:abstractNumId="13"><w:numStyleLink w:val="Circle"/></w:abstractNum>'
                 + '<w:num w:numId="20"><w:abstractNumId w:val="10"/></w:num>'
                 + '<w:num w:numId="21"><w:abstractNumId w:val="11"/></w:num>'
                 + '<w:num w:numId="22"><w:abstractNumId w:val="12"/></w:num>'
                 + '<w:num w:numId="23"><w:abstractNumId w:val="13"/></w:num>')
    styles = ('<w:style w:type="numbering" w:styleId="LegalList"><w:name w:val="Legal List"/>'
              '<w:pPr><w:numPr><w:numId w:val="20"/></w:numPr></w:pPr></w:style>'
              '<w:style w:type="numbering" w:styleId="Circle"><w:name w:val="Circle"/>'  # links back to itself
              '<w:pPr><w:numPr><w:numId w:val="23"/></w:numPr></w:pPr></w:style>')
    body = (listed(21, 0, "Parties") + listed(21, 1, "The Buyer") + listed(21, 1, "The Seller")
            + listed(21, 0, "Term") + listed(22, 0, "A list whose style is missing") + listed(23, 0, "A circle"))

    entry = extract(body, numbering=numbering, styles=styles)

    assert entry.text.split("\n") == ["Article 1 Parties", "1.1 The Buyer", "1.2 The Seller", "Article 2 Term",
                                      "A list whose style is missing", "A circle"]


def test_a_level_restarts_as_its_restart_rule_says():
    def restarting(ilvl: int, text: str, restart: int) -> str:
        return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
                f'<w:lvlRestart w:val="{restart}"/><w:lvlText w:val="{text}"/></w:lvl>')

    # Questions numbered through the whole form (never restarted), sub-points restarted by sections only.
    numbering = ('<w:abstractNum w:abstractNumId="1">' + level(0, "upperLetter", "Section %1")
                 + restarting(1, "Q%2.", 0) + restarting(2, "(%3)", 1) + "</w:abstractNum>"
                 + '<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>')
    body = (listed(1, 0, "Company") + listed(1, 1, "Name?") + listed(1, 2, "Legal name") + listed(1, 1, "Size?")
            + listed(1, 2, "Staff") + listed(1, 0, "Contract") + listed(1, 1, "Term?") + listed(1, 2, "Months"))

    entry = extract(body, numbering=numbering)

    assert entry.text.split("\n") == ["Section A Company", "Q1. Name?", "(1) Legal name", "Q2. Size?", "(2) Staff",
                                      "Section B Contract", "Q3. Term?", "(1) Months"]


def test_numbering_a_hand_made_file_gets_wrong_reads_as_words_defaults_and_refuses_nothing():
    broken = ('<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="x"><w:start w:val="one"/>'
              '<w:lvlText w:val="%1)"/></w:lvl>'
              # A start no Word takes, which in letters would have been 38 million characters long.
              '<w:lvl w:ilvl="1"><w:start w:val="999999999"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2."/>'
              "</w:lvl></w:abstractNum>"
              '<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num><w:num w:numId="3"><w:abstractNumId w:val="404"/>'
              "</w:num>")
    body = (listed(2, 0, "First") + listed(2, 1, "Detail") + listed(2, 0, "Second") + listed(3, 0, "Unknown list")
            + listed(9, 0, "No list"))

    entry = extract(body, numbering=broken)

    assert entry.text == "1) First\na. Detail\n2) Second\nUnknown list\nNo list"


def test_a_document_without_numbering_or_styles_parts_is_read():
    # Many writers leave these parts out; python-docx creating them on demand refused such files ("corrupt DOCX: ").
    entry = extract(paragraph(run("Terms.")), drop=("numbering.xml", "styles.xml", "stylesWithEffects.xml"))

    assert (entry.text, entry.detail) == ("Terms.", "DOCX, 1 paragraph")


def test_an_equation_reads_as_its_text():
    equation = "<m:oMath><m:r><m:t>x</m:t></m:r><m:r><m:t>=1</m:t></m:r></m:oMath>"

    assert extract(paragraph(run("Let "), equation, run(" hold."))).text == "Let x=1 hold."


def test_an_embedded_html_document_is_read_where_it_stands_and_another_format_is_said_unread():
    html = ("<html><head><title>Export</title><style>p {}</style></head>"
            "<body><p>Clause 9: Acme pays within 30 days.</p><script>alert(1)</script></body></html>")
    body = paragraph(run("Before")) + "<w:altChunk r:id='rIdTest1'/>" + paragraph(run("After")) + (
        "<w:altChunk r:id='rIdTest2'/>")

    entry = extract(body, [("html", html), ("rtf", r"{\rtf1 Clause 10}")])

    assert entry.text == "Before\nClause 9: Acme pays within 30 days.\nAfter"
    assert entry.detail == "DOCX, 2 paragraphs, 1 embedded document not read (RTF, MHT or Word)"


def test_a_note_referred_to_only_from_another_note_is_read_wherever_it_stands():
    def note(note_id: int, *content: str) -> str:
        return f"<w:footnote w:id='{note_id}'>{paragraph(*content)}</w:footnote>"

    body = paragraph(run("Fees"), "<w:r><w:footnoteReference w:id='1'/></w:r>")
    # The part holds the note referred to before the note that refers to it.
    notes = note(2, run("Schedule B.")) + note(1, run("See also"), "<w:r><w:footnoteReference w:id='2'/></w:r>")

    entry = extract(body, [("footnotes", notes)])

    assert entry.text == "Fees[1]\nFootnotes:\n[1] See also[2]\n[2] Schedule B."
    assert entry.detail == "DOCX, 1 paragraph, 2 notes"


def test_notes_are_counted_when_found_not_when_referred_to():
    body = paragraph(run("Fees"), "<w:r><w:footnoteReference w:id='1'/></w:r>",
                     "<w:r><w:footnoteReference w:id='2'/></w:r>")

    entry = extract(body, [("footnotes", f"<w:footnote w:id='1'>{paragraph(run('Excluding VAT.'))}</w:footnote>")])

    assert entry.text == "Fees[1][2]\nFootnotes:\n[1] Excluding VAT.\n[2]"
    assert entry.detail == "DOCX, 1 paragraph, 1 note"


def test_symbols_read_as_the_characters_their_fonts_show():
    def sym(font: str, code: str) -> str:
        return f"<w:r><w:sym w:font='{font}' w:char='{code}'/></w:r>"

    body = (paragraph(run("Delivery "), sym("Symbol", "F0A3"), run(" 30 days, tolerance "), sym("Symbol", "F0B1"),
                      run(" 5 %, "), sym("Symbol", "F06D"), run("m.")),
            paragraph(sym("Wingdings", "F0FE"), run(" Insured "), sym("Wingdings", "F0A8"), run(" Uninsured")),
            paragraph(sym("Segoe UI Symbol", "2713"), run(" Signed")),  # a Unicode font: the code is the character
            # Codes no table knows, and nonsense, read as nothing rather than as a private-use character.
            paragraph(run("Logo"), sym("Wingdings 3", "F062"), sym("Arial", "E001"), sym("Arial", "zz"),
                      sym("Symbol", "F0FF"), run(".")))

    assert extract("".join(body)).text.split("\n") == [
        "Delivery ≤ 30 days, tolerance ± 5 %, μm.", "☑ Insured ◻ Uninsured", "✓ Signed", "Logo."]


def test_legacy_form_fields_show_their_check_box_states_and_choices():
    def form_field(data: str, code: str, result: str = "") -> str:
        shown = f"<w:r><w:fldChar w:fldCharType='separate'/></w:r>{run(result)}" if result else ""
        return (f"<w:r><w:fldChar w:fldCharType='begin'><w:ffData><w:name w:val='F'/>{data}</w:ffData></w:fldChar>"
                f"</w:r><w:r><w:instrText xml:space='preserve'> {code} </w:instrText></w:r>{shown}"
                "<w:r><w:fldChar w:fldCharType='end'/></w:r>")

    def box(state: str) -> str:
        return form_field(f"<w:checkBox><w:sizeAuto/>{state}</w:checkBox>", "FORMCHECKBOX")

    choices = "<w:listEntry w:val='Monthly'/><w:listEntry w:val='Quarterly'/>"
    body = (paragraph(box("<w:default w:val='0'/><w:checked/>"), run(" Renews automatically")),
            paragraph(box("<w:default w:val='1'/><w:checked w:val='0'/>"), run(" Exclusive")),
            paragraph(box("<w:default w:val='1'/>"), run(" Confidential")),  # never changed: its default
            paragraph(run("Invoices: "), form_field(f"<w:ddList><w:result w:val='1'/>{choices}</w:ddList>",
                                                    "FORMDROPDOWN")),
            paragraph(run("Reports: "), form_field(f"<w:ddList>{choices}</w:ddList>", "FORMDROPDOWN")),
            paragraph(run("Broken: "), form_field(f"<w:ddList><w:result w:val='7'/>{choices}</w:ddList>",
                                                  "FORMDROPDOWN")),
            paragraph(run("Buyer: "), form_field("<w:textInput/>", "FORMTEXT", "Acme GmbH")))

    assert extract("".join(body)).text.split("\n") == [
        "☒ Renews automatically", "☐ Exclusive", "☒ Confidential", "Invoices: Quarterly", "Reports: Monthly",
        "Broken: ", "Buyer: Acme GmbH"]


def test_page_and_column_breaks_part_the_words_they_stand_between():
    body = paragraph(run("End of the main terms."), "<w:r><w:br w:type='page'/></w:r>", run("Schedule A: Prices"),
                     "<w:r><w:br w:type='column'/></w:r>", run("Right column"), "<w:r><w:br/></w:r>", run("Line"))

    assert extract(body).text == "End of the main terms.\nSchedule A: Prices\nRight column\nLine"


def test_text_hidden_by_its_paragraphs_style_is_left_out_unless_its_run_shows_it():
    styles = ('<w:style w:type="paragraph" w:styleId="DraftNote"><w:name w:val="Draft Note"/>'
              '<w:rPr><w:vanish/></w:rPr></w:style>'
              '<w:style w:type="paragraph" w:styleId="DraftNoteIndented"><w:name w:val="Draft Note Indented"/>'
              '<w:basedOn w:val="DraftNote"/></w:style>'
              '<w:style w:type="character" w:styleId="Shown"><w:name w:val="Shown"/><w:rPr><w:vanish w:val="0"/>'
              '</w:rPr></w:style>')
    shown = "<w:r><w:rPr><w:rStyle w:val='Shown'/></w:rPr><w:t xml:space='preserve'> Keep this.</w:t></w:r>"
    body = (paragraph(run("Terms.")) + styled("DraftNote", "Drafting note: delete before sending.")
            + styled("DraftNoteIndented", "Ask legal.")
            + paragraph("<w:pPr><w:pStyle w:val='DraftNote'/></w:pPr>", run("Hidden."), shown))

    assert extract(body, styles=styles).text.split("\n") == ["Terms.", "", "", " Keep this."]


def test_ruby_text_over_east_asian_characters_is_read_once_as_its_base():
    ruby = ("<w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>かんじ</w:t></w:r></w:rt>"
            "<w:rubyBase><w:r><w:t>漢字</w:t></w:r></w:rubyBase></w:ruby></w:r>")

    assert extract(paragraph(ruby, run("の契約"))).text == "漢字の契約"


def test_an_embedded_html_documents_blocks_read_a_line_each():
    html = ("<html><body><h1>Annex</h1><p>First paragraph.</p><div>Second paragraph.</div>"
            "<ul><li>Apples</li><li>Pears</li></ul><table><tr><th>Item</th><th>Price</th></tr>"
            "<tr><td>Rye</td><td>2.50</td></tr></table>Line one<br>line two</body></html>")
    body = paragraph(run("Before")) + "<w:altChunk r:id='rIdTest1'/>" + paragraph(run("After"))

    assert extract(body, [("html", html)]).text.split("\n") == [
        "Before", "Annex", "First paragraph.", "Second paragraph.", "Apples", "Pears", "Item | Price", "Rye | 2.50",
        "Line one", "line two", "After"]


def test_a_notes_text_reads_without_the_space_after_its_own_mark():
    body = paragraph(run("Fees"), "<w:r><w:footnoteReference w:id='1'/></w:r>", run("."))
    note = paragraph("<w:r><w:footnoteRef/></w:r>", run(" Prices exclude VAT."))

    entry = extract(body, [("footnotes", f"<w:footnote w:id='1'>{note}</w:footnote>")])

    assert entry.text == "Fees[1].\nFootnotes:\n[1] Prices exclude VAT."
