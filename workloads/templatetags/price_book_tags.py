"""A pricing error as a page shows it: the plain text kept in the database, with "the price book" a link to it."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

PHRASE = "the price book"


@register.filter
def price_book_link(text: str) -> SafeString:
    """`text`, escaped, with its first "the price book" linked to the price book page, where a missing price is
    added (pricing.PricingError says "add one to the price book"; the API reads the same words without the link)."""
    before, found, after = str(text).partition(PHRASE)
    if not found:
        return conditional_escape(text)
    link = format_html('<a href="{}">{}</a>', reverse("price_book"), PHRASE)
    return mark_safe(conditional_escape(before) + link + conditional_escape(after))
