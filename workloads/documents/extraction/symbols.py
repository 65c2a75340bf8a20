"""The character a Word symbol (w:sym, Insert > Symbol) shows. Word stores it as a font and a code: a Unicode
code point for ordinary fonts, or a symbol font's own code, moved up by 0xF000, for the fonts that predate
Unicode (Symbol, Wingdings). Those codes mean nothing without the font, so their characters are looked up here:
Symbol's Greek letters and mathematical signs (the "≤ 30 days", "± 5 %" of contracts), and the Wingdings glyphs
documents use as check boxes, marks and bullets. Other symbol-font codes read as nothing rather than as a
private-use character no reader sees."""

from __future__ import annotations

_SYMBOL_FONT_BASE = 0xF000

# Adobe's Symbol encoding: its letters are Greek ones in the Latin letters' places.
_GREEK_UPPER = "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ"
_GREEK_LOWER = "αβχδεφγηιϕκλμνοπθρστυϖωξψζ"
_SYMBOL = {
    **{0x41 + i: letter for i, letter in enumerate(_GREEK_UPPER)},
    **{0x61 + i: letter for i, letter in enumerate(_GREEK_LOWER)},
    0x22: "∀", 0x24: "∃", 0x27: "∋", 0x2A: "∗", 0x2D: "−", 0x40: "≅", 0x5C: "∴", 0x5E: "⊥",
    0xA2: "′", 0xA3: "≤", 0xA5: "∞", 0xA7: "♣", 0xA8: "♦", 0xA9: "♥", 0xAA: "♠", 0xAB: "↔", 0xAC: "←",
    0xAD: "↑", 0xAE: "→", 0xAF: "↓", 0xB0: "°", 0xB1: "±", 0xB2: "″", 0xB3: "≥", 0xB4: "×", 0xB5: "∝",
    0xB6: "∂", 0xB7: "•", 0xB8: "÷", 0xB9: "≠", 0xBA: "≡", 0xBB: "≈", 0xBC: "…", 0xC6: "∅", 0xC7: "∩",
    0xC8: "∪", 0xC9: "⊃", 0xCC: "⊂", 0xCE: "∈", 0xCF: "∉", 0xD1: "∇", 0xD2: "®", 0xD3: "©", 0xD4: "™",
    0xD5: "∏", 0xD6: "√", 0xD8: "¬", 0xD9: "∧", 0xDA: "∨", 0xDB: "⇔", 0xDE: "⇒", 0xE2: "®", 0xE3: "©",
    0xE4: "™", 0xE5: "∑", 0xF2: "∫",
}
# The rest of Symbol's printable ASCII range (digits, brackets, + = < > ...) is ASCII itself.
_SYMBOL.update({code: chr(code) for code in range(0x20, 0x7F) if code not in _SYMBOL})
_WINGDINGS = {
    0x6C: "●", 0x6E: "■", 0x6F: "□", 0x71: "❑", 0x72: "❒", 0x75: "◆", 0x76: "❖", 0x78: "⌧", 0x9F: "•",
    0xA7: "▪", 0xA8: "◻", 0xD8: "➢", 0xE8: "➔", 0xF0: "⇨", 0xFB: "✗", 0xFC: "✓", 0xFD: "☒", 0xFE: "☑",
}
_FONTS = {"symbol": _SYMBOL, "wingdings": _WINGDINGS}


def symbol(font: str | None, code: str | None) -> str:
    """The character of w:sym's font and hexadecimal code ("Wingdings", "F0FE" is "☑"); "" when unknown."""
    try:
        number = int(code or "", 16)
    except ValueError:
        return ""
    table = _FONTS.get((font or "").lower())
    if _SYMBOL_FONT_BASE <= number <= _SYMBOL_FONT_BASE + 0xFF:
        return (table or {}).get(number - _SYMBOL_FONT_BASE, "")
    if table is not None and number <= 0xFF:  # some writers leave the 0xF000 out
        return table.get(number, "")
    if number < 0x20 or 0xD800 <= number <= 0xDFFF or 0xE000 <= number <= 0xF8FF or number > 0x10FFFF:
        return ""  # control characters, surrogates and other private-use codes: nothing a reader sees
    return chr(number)
