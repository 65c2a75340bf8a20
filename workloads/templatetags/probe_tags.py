"""A generated probe's passage as the probe list shows it: trimmed around the answer, with the answer marked."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

EXCERPT = 300  # characters of a passage shown: a sentence or two, enough to check an answer in one look


@register.simple_tag
def passage(probe) -> SafeString:
    """The probe's passage, escaped, at most about EXCERPT characters around its answer (… where cut), with the
    answer in <mark>. A passage without the answer (a cross-reference's, whose answer is a document's name, or one
    whose answer was edited since) is shown from its start, unmarked."""
    text, answer = probe.passage, probe.answer
    at = text.find(answer)
    if at < 0:
        return format_html("{}{}", text[:EXCERPT], "…" if len(text) > EXCERPT else "")
    # A window of EXCERPT characters with the answer in its middle, moved back inside the passage at either end.
    start = max(0, min(at - max(0, EXCERPT - len(answer)) // 2, len(text) - EXCERPT))
    end = max(start + EXCERPT, at + len(answer))
    return format_html("{}{}<mark>{}</mark>{}{}", "…" if start > 0 else "", text[start:at], answer,
                       text[at + len(answer):end], "…" if end < len(text) else "")
