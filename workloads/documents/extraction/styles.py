"""Word's style inheritance: a style's property is its own, or that of the nearest style it is based on that sets it."""

from __future__ import annotations

from collections.abc import Callable

from docx.oxml.ns import qn


def inherited(styles, style_type: str, own: Callable) -> dict:
    """styleId -> own(style) of the style or of its nearest basedOn ancestor for which own() is not None, for the
    styles of one type ("paragraph", "character") in styles.xml's root element (None: the document has none)."""
    if styles is None:
        return {}
    values, parents = {}, {}
    for style in styles.iterchildren(qn("w:style")):
        if style.get(qn("w:type"), "paragraph") != style_type:
            continue
        style_id = style.get(qn("w:styleId"))
        parent = style.find(qn("w:basedOn"))
        parents[style_id] = None if parent is None else parent.get(qn("w:val"))
        if (value := own(style)) is not None:
            values[style_id] = value
    resolved = {}
    for style_id in parents:
        seen, current = set(), style_id
        while current is not None and current not in values and current not in seen:  # bad files may loop
            seen.add(current)
            current = parents.get(current)
        if current in values:
            resolved[style_id] = values[current]
    return resolved
