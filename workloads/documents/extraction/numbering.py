"""Word's list numbers ("1.", "4.2", "(a)", "iii."), which Word draws from numbering.xml and the paragraphs' styles
instead of storing them in the text: without them "What does clause 4.2 say?" has no answer in a contract.

A paragraph is numbered by its own numbering properties or its style's (a contract's numbered headings), at a
level; each level has a start, a format and a text such as "%1.%2", and counting a level restarts the deeper ones.
A level can instead restart only after the levels above a given one, or never (lvlRestart). Lists that share a
definition continue each other's numbers, as in Word, unless one restarts them (startOverride); a definition may
hand its levels over to a list style's (numStyleLink), as the multilevel lists of legal templates do. Left out:
every bullet reads "•", and formats Word spells out ("first", "one") read as numbers. Values a hand-made file gets
wrong read as Word's defaults, never refuse the document.
"""

from __future__ import annotations

import re

from docx.oxml.ns import qn

from .styles import inherited

_VAL = qn("w:val")
_STYLE, _NUM_PR = f"{qn('w:pPr')}/{qn('w:pStyle')}", f"{qn('w:pPr')}/{qn('w:numPr')}"
_NUM_ID, _LEVEL = qn("w:numId"), qn("w:ilvl")
_LEVELS = 9  # Word's levels 0-8
_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


class ListNumbers:
    """Call label() for each paragraph of a part in reading order: numbers count as they are met."""

    def __init__(self, numbering, styles):
        """numbering.xml's and styles.xml's root elements; None for a part the document does not have."""
        abstracts = {a.get(qn("w:abstractNumId")): a for a in _children(numbering, "w:abstractNum")}
        definitions = {num.get(qn("w:numId")): _val(num.find(qn("w:abstractNumId")))
                       for num in _children(numbering, "w:num")}
        list_styles = inherited(styles, "numbering", lambda style: _val(style.find(f"{_NUM_PR}/{_NUM_ID}")))
        # numId -> (the list definition it uses, {level: start override})
        self.instances: dict[str, tuple[str, dict[int, int]]] = {}
        for num in _children(numbering, "w:num"):
            abstract = _linked(definitions[num.get(qn("w:numId"))], abstracts, definitions, list_styles)
            overrides = {_int(o.get(qn("w:ilvl")), 0): _int(_val(o.find(qn("w:startOverride"))), 1)
                         for o in num.iterchildren(qn("w:lvlOverride")) if o.find(qn("w:startOverride")) is not None}
            if abstract in abstracts:
                self.instances[num.get(qn("w:numId"))] = (abstract, overrides)
        self.levels = {key: _levels(element) for key, element in abstracts.items()}
        self.styles = _style_numbering(styles, abstracts, self.instances)
        self.counts: dict[str, list[int | None]] = {}
        self.started: set[str] = set()

    def label(self, p) -> str:
        """The paragraph's number as Word shows it ("" when it has none), counting it."""
        num_id, level = self.styles.get(_val(p.find(_STYLE)), (None, 0))
        own = p.find(_NUM_PR)
        if own is not None:
            num_id = _val(own.find(_NUM_ID)) or num_id
            level = _int(_val(own.find(_LEVEL)), level)
        if num_id not in self.instances or not 0 <= level < _LEVELS:
            return ""  # numId 0 takes a style's numbering away
        abstract, overrides = self.instances[num_id]
        levels = self.levels[abstract]
        counts = self.counts.setdefault(abstract, [None] * _LEVELS)
        if num_id not in self.started:  # a list that restarts its definition's numbers
            self.started.add(num_id)
            for overridden, start in overrides.items():
                if 0 <= overridden < _LEVELS:
                    counts[overridden] = start - 1
                    counts[overridden + 1:] = [None] * (_LEVELS - overridden - 1)
        definition = levels.get(level, _Level())
        counts[level] = definition.start if counts[level] is None else counts[level] + 1
        for deeper in range(level + 1, _LEVELS):
            if levels.get(deeper, _Level()).restarts_after(level):
                counts[deeper] = None
        return definition.render(counts, levels)


class _Level:
    def __init__(self, start: int = 1, fmt: str = "decimal", text: str = "", legal: bool = False,
                 restart: int | None = None):
        self.start, self.fmt, self.text, self.legal = start, fmt, text, legal
        # lvlRestart: None restarts after any level above; 0 never; n after levels 1..n (Word counts from 1 here).
        self.restart = restart

    def restarts_after(self, level: int) -> bool:
        """Whether a paragraph numbered at `level`, a level above this one, restarts this level's count."""
        return self.restart is None or level < self.restart

    def render(self, counts: list[int | None], levels: dict[int, _Level]) -> str:
        if self.fmt == "bullet":
            return "•"

        def number(match: re.Match) -> str:
            level = int(match.group(1)) - 1
            definition = levels.get(level, _Level())
            count = counts[level] if 0 <= level < _LEVELS and counts[level] is not None else definition.start
            return _format(count, "decimal" if self.legal else definition.fmt)

        return re.sub(r"%([1-9])", number, self.text)


def _levels(abstract) -> dict[int, _Level]:
    levels = {}
    for lvl in abstract.iterchildren(qn("w:lvl")):
        levels[_int(lvl.get(qn("w:ilvl")), 0)] = _Level(
            start=_int(_val(lvl.find(qn("w:start"))), 1),
            fmt=_val(lvl.find(qn("w:numFmt"))) or "decimal",
            text=_val(lvl.find(qn("w:lvlText"))) or "",
            legal=lvl.find(qn("w:isLgl")) is not None,
            restart=_int(_val(lvl.find(qn("w:lvlRestart"))), None))
    return levels


def _linked(abstract: str | None, abstracts: dict, definitions: dict, list_styles: dict) -> str | None:
    """The list definition that holds the levels: one that links to a list style (numStyleLink) uses the definition
    of the list the style numbers with. A link that leads nowhere, or in a circle, keeps the definition as it is."""
    current, seen = abstract, set()
    while current in abstracts and current not in seen:
        seen.add(current)
        link = _val(abstracts[current].find(qn("w:numStyleLink")))
        if link is None:
            return current
        current = definitions.get(list_styles.get(link))
    return abstract


def _style_numbering(styles, abstracts: dict, instances: dict) -> dict[str, tuple[str, int]]:
    """styleId -> (numId, level) for paragraph styles that number, their own or inherited through basedOn."""
    def own(style):
        num_pr = style.find(_NUM_PR)
        return None if num_pr is None else (_val(num_pr.find(_NUM_ID)), _val(num_pr.find(_LEVEL)))

    return {style_id: (num_id, _int(level, 0) if level else _linked_level(style_id, num_id, abstracts, instances))
            for style_id, (num_id, level) in inherited(styles, "paragraph", own).items()}


def _linked_level(style_id: str, num_id: str, abstracts: dict, instances: dict) -> int:
    """The level whose definition names the style (w:pStyle): how headings 1, 2, 3 take levels 0, 1, 2."""
    abstract = abstracts.get(instances.get(num_id, (None,))[0])
    if abstract is not None:
        for lvl in abstract.iterchildren(qn("w:lvl")):
            if _val(lvl.find(qn("w:pStyle"))) == style_id:
                return _int(lvl.get(qn("w:ilvl")), 0)
    return 0


def _format(n: int, fmt: str) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        # Word repeats the letter past z: 27 is "aa", 28 "bb".
        letter = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1) if n > 0 else str(n)
        return letter.upper() if fmt == "upperLetter" else letter
    if fmt in ("lowerRoman", "upperRoman") and 0 < n < 4000:
        roman = ""
        for value, numeral in _ROMAN:
            while n >= value:
                roman, n = roman + numeral, n - value
        return roman.upper() if fmt == "upperRoman" else roman
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "none":
        return ""
    return str(n)  # decimal, and the formats Word spells out (ordinal, cardinalText...) as numbers


def _children(element, tag: str) -> list:
    return [] if element is None else list(element.iterchildren(qn(tag)))


def _val(element) -> str | None:
    return None if element is None else element.get(_VAL)


def _int(value: str | None, default: int | None) -> int | None:
    # Word takes levels 0-8 and starts up to 32,767; a start of 10^9 in letters would be 38 million "z"s.
    if value and value.lstrip("-").isdigit() and len(value) <= 6 and abs(int(value)) <= 32767:
        return int(value)
    return default
