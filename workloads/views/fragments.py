"""Keys for the parts of a page kept in Django's cache as HTML (`{% cache %}`, with one of these as its vary-on).

A fragment's key is a digest of the values it shows and of the templates that draw it, so nothing has to be
invalidated: a run that changes, another clock, or a deploy that changes a template is another key, and a fragment
cannot outlive what it was drawn from. A fragment keyed this way must show nothing else: no CSRF token, nothing of
the person viewing it beyond what its values say.
"""

from __future__ import annotations

import functools
import hashlib

from django.template.loader import get_template

# Entries never go stale (their key is their content); this only bounds how long an unused one takes room.
TIMEOUT_S = 7 * 24 * 3600


@functools.cache
def _source(template: str) -> str:
    return hashlib.sha256(get_template(template).template.source.encode()).hexdigest()


def key(templates: tuple[str, ...], *values) -> str:
    """The key of a fragment drawn by `templates` (the page's and those it includes there) from `values`, plain values
    whose repr says all they hold."""
    code = "".join(_source(t) for t in templates)
    return hashlib.sha256((code + repr(values)).encode()).hexdigest()
