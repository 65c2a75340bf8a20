"""What a workload and a probe may hold: one set of rules for the pages' forms and the API's schemas.

Both import these, so that whatever one accepts the other accepts too, and a workload or probe
created through the API can be saved unchanged on the web (and the other way round).
"""

from __future__ import annotations

import unicodedata

from workloads.extraction.datatypes import HIDDEN_CHARACTERS
from workloads.models import Organisation, Probe, Workload

NAME_MAX = Workload._meta.get_field("name").max_length
API_PROVIDER_MAX = Workload._meta.get_field("api_provider").max_length
DESCRIPTION_MAX = 5_000  # long enough for any real description, short enough to keep pages readable
EXPECTED_VOLUME_MAX = 10**9  # units of work a month: beyond any real workload, well inside PostgreSQL's integer
QUESTION_MAX = 2_000  # a question goes into every model call of every strategy: a paragraph at most
ANSWER_MAX = Probe._meta.get_field("answer").max_length

ONE_LINE = "must be one line of visible text without control characters"


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


def workload_name_taken(organisation: Organisation, name: str, workload: Workload | None = None) -> bool:
    """Whether another of the organisation's workloads has this name, ignoring case, as the database's
    constraint does (this check gives the clear error; the constraint settles a race).

    `workload` is the one being edited: it may change the case of its own name.
    """
    others = Workload.objects.filter(organisation=organisation, name__iexact=name)
    if workload is not None and workload.pk is not None:
        others = others.exclude(pk=workload.pk)
    return others.exists()
