"""Recognising an answer that says the text holds no answer ("NONE"). Torch-free.

The prompts ask the model to answer NONE when the text does not say, but small models word it their own way:
"None.", "The text does not say.", "Not stated", "I don't know". A chunked map step that misses one keeps a
non-answer for its reduce, and Self-Route that misses one never escalates, so recognition is lenient about the
wording and strict about the place: a pattern counts only at the start of the answer, after leading whitespace,
quotes, asterisks and other punctuation are stripped (models often write '"NONE"' or '**None**').

Decided near-misses, each in the tests:
- "None of the fees apply: 40 euros" is an ANSWER: "none" counts only alone or followed by punctuation
  ("NONE.", "None - the text is silent") or by a word that says nothing was found ("none given"), since
  "none of ..." reads as a claim about the documents, which a question may rightly get.
- "Nonexistent", "Nonetheless, ..." are answers: whole words only.
- "There is no fee" and "No later than 45 days" are answers: "no" counts only before information/mention/answer.
- An answer that ends with "not stated" is an answer: the patterns are anchored at the start.
"""

from __future__ import annotations

import re

NONE = "NONE"

# What "found nothing" says after "none" or "not": "none given", "not stated", "not in the text".
_NOT_FOUND = r"(?:stated|given|mentioned|specified|provided|found|listed|included|available|known|indicated)"
_TEXT = r"(?:text|texts|document|documents|passage|passages|chunk|context|excerpt|part|section|source)"
_VERB = r"(?:say|state|mention|specify|contain|include|provide|give|list|answer|indicate|tell)"

# "NONE", "None.", "none: ...", "None given", but not "None of the fees apply" nor "Nonexistent".
_NONE_WORD = rf"none(?:\s*$|\s*[^\w\s]|\s+{_NOT_FOUND}\b)"

# Each pattern is matched at the start of the stripped answer, case-insensitively.
PATTERNS = (
    _NONE_WORD,
    rf"(?:the\s+)?answer(?:\s+is)?\s*:?\s*{_NONE_WORD}",  # "The answer is NONE.", "Answer: none" (SmolLM2's habit)
    rf"not\s+(?:{_NOT_FOUND}|in\s+the\s+{_TEXT})\b",  # "Not stated", "not in the text"
    rf"(?:the|this|these)\s+{_TEXT}\s+(?:does|do|did)\s*n[o']t\s+{_VERB}\b",  # "The text does not say"
    rf"(?:the|this|these)\s+{_TEXT}\s+(?:is|are)\s+silent\b",
    r"(?:there\s+is\s+|there's\s+)?no\s+(?:information|mention|answer|data|details?)\b",
    r"i\s+(?:do\s*n[o']t|cannot|can't|can\s+not|am\s+unable\s+to)\s+(?:know|tell|say|find|determine|answer)\b",
    r"i(?:'m|\s+am)\s+not\s+sure\b",
    r"(?:it\s+)?(?:cannot|can't|can\s+not)\s+be\s+(?:determined|found|answered|inferred|known)\b",
    r"the\s+answer\s+is\s+not\s+(?:in|given|stated|mentioned|provided)\b",
    # Only alone or before punctuation: "Unknown." but not "Unknown Pleasures".
    r"(?:unknown|n/a|nothing)\s*(?:$|[^\w\s/])",
)
_SAYS_NONE = re.compile("|".join(f"(?:{p})" for p in PATTERNS), re.IGNORECASE)
# Stripped before matching: whitespace, quotes (straight and curly), markdown emphasis, bullets and brackets.
_LEADING = re.compile(r"""^[\s"'`*_>\-–—•(\[\u2018\u2019\u201c\u201d:.]+""")


def says_none(answer: str) -> bool:
    """Whether the model's answer says the text holds no answer (see PATTERNS and the module's near-misses)."""
    text = _LEADING.sub("", answer.replace("\u2019", "'"))
    return _SAYS_NONE.match(text) is not None
