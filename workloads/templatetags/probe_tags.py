"""A generated probe's passage as the probe list shows it: a quote per sentence it rests on, each trimmed around the
answer, with the answer marked."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from engine.core.probes import PASSAGE_JOIN, SOURCE_JOIN

register = template.Library()

EXCERPT = 300  # characters of a passage shown: a sentence or two, enough to check an answer in one look


@register.filter
def passages(probe) -> list[tuple[str, SafeString]]:
    """The probe's passage as (document, excerpt) pairs, one per sentence a join rests on ("a … b" from "a.txt +
    b.txt"), each named by its document; one pair, unnamed (the source is shown beside it), for a passage of one
    sentence or one whose parts do not match its documents."""
    parts = probe.passage.split(PASSAGE_JOIN)
    documents = (probe.source or "").split(SOURCE_JOIN)
    if len(parts) > 1 and len(documents) == 1:  # a join inside one document
        documents *= len(parts)
    if len(parts) == 1 or len(documents) != len(parts):
        return [("", _excerpt(probe.passage, probe.answer))]
    return [(document.strip(), _excerpt(part, probe.answer)) for document, part in zip(documents, parts)]


def _excerpt(text: str, answer: str) -> SafeString:
    """The text, escaped, at most about EXCERPT characters around the answer (… where cut), with the answer in
    <mark>. A text without the answer (a cross-reference's, whose answer is a document's name, the first sentence
    of a join, or one whose answer was edited since) is shown from its start, unmarked."""
    at = text.find(answer)
    if at < 0:
        return format_html("{}{}", text[:EXCERPT], "…" if len(text) > EXCERPT else "")
    # A window of EXCERPT characters with the answer in its middle, moved back inside the passage at either end.
    start = max(0, min(at - max(0, EXCERPT - len(answer)) // 2, len(text) - EXCERPT))
    end = max(start + EXCERPT, at + len(answer))
    return format_html("{}{}<mark>{}</mark>{}{}", "…" if start > 0 else "", text[start:at], answer,
                       text[at + len(answer):end], "…" if end < len(text) else "")
