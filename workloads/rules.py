"""What a workload and a probe may hold: one set of rules for the pages' forms and the API's schemas.

Both import these, so that whatever one accepts the other accepts too, and a workload or probe
created through the API can be saved unchanged on the web (and the other way round).
"""

from __future__ import annotations

import re
import unicodedata

from engine.core.abstention import says_none
from workloads.documents.extraction.datatypes import HIDDEN_CHARACTERS
from workloads.models import Organisation, Probe, Workload

NAME_MAX = Workload._meta.get_field("name").max_length
API_PROVIDER_MAX = Workload._meta.get_field("api_provider").max_length
API_MODEL_MAX = Workload._meta.get_field("api_model").max_length
DESCRIPTION_MAX = 5_000  # long enough for any real description, short enough to keep pages readable
EXPECTED_VOLUME_MAX = 10**9  # units of work a month: beyond any real workload, well inside PostgreSQL's integer
QUESTION_MAX = 2_000  # a question goes into every model call of every strategy: a paragraph at most
ANSWER_MAX = Probe._meta.get_field("answer").max_length
PROBES_TO_GENERATE_MAX = 200  # each probe is a model call per strategy: a set this size is hours on a CPU already

ONE_LINE = "must be one line of visible text without control characters"
ABSENT_ANSWER = ('an absent probe asks what the documents do not say: its answer is a refusal, such as "not stated" '
                 'or "NONE"')
INVISIBLE = "must not contain invisible characters"


def answer_fits_kind(kind: str, answer: str) -> bool:
    """An absent probe's answer must be a refusal (engine.core.abstention), which the scorer matches with any."""
    return kind != Probe.Kind.ABSENT or says_none(answer)


def is_one_line(value: str) -> bool:
    """No control characters (C0 and C1, newlines and tabs included), no line or paragraph separators,
    no bidi controls, and, unless empty, at least one visible character (not only zero-width ones).

    Names, providers and answers are shown in <input>s, which drop newlines when the form is saved
    again; and an answer is scored after whitespace is collapsed, so a newline in one carries nothing.
    """
    if HIDDEN_CHARACTERS.search(value):  # the characters stripped from uploaded files' names
        return False
    return not value or any(_visible(c) for c in value)


# Letters and symbols that draw nothing: Hangul fillers and the blank braille pattern.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _visible(c: str) -> bool:
    """Not a space, a format character (zero-width), a mark on nothing (a lone accent) or a blank letter."""
    return not c.isspace() and unicodedata.category(c) not in ("Cf", "Mn", "Me") and c not in _BLANKS


# Marks that draw nothing themselves: the combining grapheme joiner and Khmer's two inherent vowels, which Unicode
# says not to use. Variation selectors (below) are kept apart: they do change the character before them.
_INVISIBLE_MARKS = frozenset("\u034f\u17b4\u17b5")
_SELECTORS = re.compile(r"[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_ZWNJ, _ZWJ = "\u200c", "\u200d"
_SKIN_TONES = re.compile(r"[\U0001f3fb-\U0001f3ff]")


def invisible_character(value: str) -> str | None:
    """The first character of value that draws nothing where it stands, as "U+200B ZERO WIDTH SPACE"; or None.

    For names, which must be told apart on sight: "Con\u200btracts" looks like "Contracts" on every page. Refused:
    format characters (Cf: zero-width space, word joiner, BOM, soft hyphen, bidi marks and controls, tags), blank
    letters, marks that draw nothing, and joiners and variation selectors where they change nothing.
    """
    for i, c in enumerate(value):
        if c in (_ZWNJ, _ZWJ):
            hidden = not _joins(value, i)
        elif _SELECTORS.match(c):
            hidden = not _selects(value, i)
        else:
            hidden = c in _BLANKS or c in _INVISIBLE_MARKS or unicodedata.category(c) == "Cf"
        if hidden:
            return f"U+{ord(c):04X} {unicodedata.name(c)}"  # every character tested here has a name
    return None


def _joins(value: str, i: int) -> bool:
    """Whether the joiner at i changes how its neighbours are drawn (RFC 5892's CONTEXTJ, simplified, and emoji).

    After a virama both do (Devanagari, Bengali, Sinhala...). ZWNJ between two letters of a caseless script:
    Persian writes it inside words ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"); Latin, Greek and Cyrillic
    letters have case (Lu, Ll), and there it changes next to nothing. Python has no joining types, so CJK and
    Hebrew (Lo too) are let through: a small gap, accepted for a rule short enough to check. ZWJ between two
    emoji makes one ("\U0001f469\u200d\U0001f4bb"). Leading, trailing and doubled joiners never qualify.
    """
    if i + 1 == len(value):
        return False
    if i > 0 and unicodedata.combining(value[i - 1]) == 9:  # canonical combining class 9: a virama
        return True
    before = i - 1
    # Marks (Arabic vowels, an emoji's variation selector) and skin tones sit between a letter or emoji and a joiner.
    while before >= 0 and (unicodedata.category(value[before]) in ("Mn", "Me") or _SKIN_TONES.match(value[before])):
        before -= 1
    wanted = "Lo" if value[i] == _ZWNJ else "So"
    return before >= 0 and unicodedata.category(value[before]) == wanted == unicodedata.category(value[i + 1])


def _selects(value: str, i: int) -> bool:
    """Whether the variation selector at i picks a form of the character before it: an emoji's (\u2764\ufe0f), a CJK
    ideograph's or a Mongolian letter's (So, Lo), or a keycap's (1\ufe0f\u20e3)."""
    return i > 0 and (unicodedata.category(value[i - 1]) in ("So", "Lo") or value[i + 1:i + 2] == "\u20e3")


def _folded(name: str) -> str:
    """name as it reads: NFKC makes "\uff23ontracts" (fullwidth C) and "Contracts" one, casefold ignores case, and
    runs of spaces count as one, as HTML draws them ("Sample  contracts" shows as "Sample contracts")."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def workload_named_alike(organisation: Organisation, name: str, workload: Workload | None = None) -> str | None:
    """The name of another of the organisation's workloads that reads the same as name (equal once folded), or None.

    Names are kept as typed, and one that reads like another is refused rather than rewritten: that way what the
    API saves the form saves unchanged, and the other way round.

    This check gives the clear error; the database's constraint, on lower(name), settles a race between two
    requests whose names differ only in case. It compares in Python because SQLite (the embedded default)
    has no NFKC and folds only ASCII case; an organisation has tens of workloads, not millions.
    `workload` is the one being edited: it may change the case of its own name.
    """
    others = Workload.objects.filter(organisation=organisation)
    if workload is not None and workload.pk is not None:
        others = others.exclude(pk=workload.pk)
    target = _folded(name)
    return next((other for other in others.values_list("name", flat=True) if _folded(other) == target), None)


def name_taken(other: str) -> str:
    """Why a name was refused, for the form and the API alike: which workload it reads like (a clause, as ONE_LINE)."""
    return f'your organisation already has a workload with this name: "{other}"'
