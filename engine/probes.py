"""Probes: questions about a workload's documents with a short, checkable answer.

A probe is right when its expected answer appears, as whole words, in what the model
wrote (`is_correct`), after both are normalised (`normalise`). No judge model is
needed, so answers are short: a number, a code, a name or a document's file name.

Probes come from the user (`load_probes`, JSON Lines) or are generated from the
documents by `generate_probes`, whose heuristics look only for sentences shaped in a
few plain ways, so that the expected answer is always an exact span of the text:

retrieval
    A sentence `The <subject> is|are|was|shall be <value>.` The subject is a few
    lowercase words, optionally followed by an `of ...` phrase ("account manager of
    Northwind Logistics"). The value is at most six words and begins with a digit, a
    currency sign or a capital letter, so a predicate such as "is due within 30 days"
    is not taken for a value. A subject stated twice with different values is skipped
    as ambiguous. Question: "What is the <subject>?"; answer: the value.
cross_reference
    A defined term (`"Term" means ...`, `"Term" shall mean ...` or `(the "Term")`)
    defined in one document and used, as whole words, in another; or a function or
    class (`def name(`, `function name(`, `class Name`) defined in one file and called
    (`name(`) in another that does not define it. Question: which document defines it;
    answer: that document's name. Names defined in two documents are skipped.
multi_hop
    A retrieval fact in document A whose value is a capitalised name ("The account
    manager of Northwind Logistics is Dana Reyes.") and, in another document B, a fact
    about that name: `<Name>'s <attribute> is <value>.` or `The <attribute> of <Name>
    is <value>.` Question: "What is the <attribute> of the <subject of A>?"; answer:
    the value from B; source "A + B".
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.documents import Document
from engine.errors import EngineError

KINDS = ("retrieval", "cross_reference", "multi_hop", "user")
FIELDS = ("question", "answer", "kind", "source")


@dataclass(frozen=True)
class Probe:
    question: str
    answer: str
    kind: str = "user"
    source: str | None = None  # where the expected answer stands, e.g. "contract.txt" or "a.txt + b.txt"


# --- reading and writing ---------------------------------------------------------------


def load_probes(path: str | os.PathLike) -> list[Probe]:
    """Read probes from a JSON Lines file, one object per line; blank lines are skipped.

    Each object has a non-empty string "question" and "answer", and optionally "kind"
    (one of KINDS, default "user") and "source". Errors name the file and the line.
    """
    path = Path(path)
    probes = [_probe(path.name, number, line) for number, line in _lines(path) if line.strip()]
    if not probes:
        raise EngineError(f"{path.name} holds no probes: write one JSON object per line")
    return probes


def save_probes(probes: Iterable[Probe], path: str | os.PathLike) -> None:
    """Write probes as JSON Lines that load_probes reads back unchanged.

    The file is written to a temporary file beside it and then renamed over it, so a
    reader never sees half a file and a failed write leaves the old file intact.
    """
    path = Path(path)
    lines = [json.dumps(_record(probe), ensure_ascii=False) + "\n" for probe in probes]
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", delete=False)
    try:
        with handle:
            handle.writelines(lines)
        os.replace(handle.name, path)
    except BaseException:
        os.unlink(handle.name)
        raise


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    if not path.is_file():
        raise EngineError(f"{path} does not exist or is not a file")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EngineError(f"{path.name} is not valid UTF-8 text") from exc
    # Not splitlines(): it also breaks at U+2028 and friends, which JSON strings may hold.
    return enumerate(text.split("\n"), start=1)


def _probe(file: str, number: int, line: str) -> Probe:
    where = f"{file}: line {number}"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EngineError(f"{where} is not valid JSON ({exc.msg})") from exc
    if not isinstance(record, dict):
        raise EngineError(f'{where} is not a JSON object: write {{"question": ..., "answer": ...}}')
    unknown = sorted(set(record) - set(FIELDS))
    if unknown:
        raise EngineError(f"{where} has unknown field {unknown[0]!r} (expected {', '.join(FIELDS)})")
    kind = record.get("kind", "user")
    if kind not in KINDS:
        raise EngineError(f"{where} has unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
    source = record.get("source")
    if source is not None and not isinstance(source, str):
        raise EngineError(f'{where}: "source" must be a string')
    return Probe(_text_field(where, record, "question"), _text_field(where, record, "answer"), kind, source)


def _text_field(where: str, record: dict, field: str) -> str:
    if field not in record:
        raise EngineError(f'{where} has no "{field}"')
    value = record[field]
    if not isinstance(value, str):
        raise EngineError(f'{where}: "{field}" must be a string, not {type(value).__name__}')
    if not value.strip():
        raise EngineError(f'{where}: "{field}" is empty')
    return value


def _record(probe: Probe) -> dict[str, str]:
    record = {"question": probe.question, "answer": probe.answer, "kind": probe.kind}
    if probe.source is not None:
        record["source"] = probe.source
    return record


# --- scoring ---------------------------------------------------------------------------

# A comma between digits with exactly three digits after it groups thousands: 4,500,000.
THOUSANDS_SEPARATOR = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# A period is kept only as a decimal point, between two digits.
NON_DECIMAL_PERIOD = re.compile(r"(?<!\d)\.|\.(?!\d)")
# Everything but letters, digits, whitespace and the periods that survived.
PUNCTUATION = re.compile(r"[^\w\s.]|_")


def normalise(text: str) -> str:
    """Fold text for comparing answers: NFKC, lowercase, "4,500" -> "4500", no punctuation.

    Punctuation (currency signs included) becomes a space, except a decimal point
    between digits; runs of whitespace collapse to one space.
    """
    text = unicodedata.normalize("NFKC", text).lower()
    text = THOUSANDS_SEPARATOR.sub("", text)
    text = NON_DECIMAL_PERIOD.sub(" ", text)
    text = PUNCTUATION.sub(" ", text)
    return " ".join(text.split())


def is_correct(output: str, expected: str) -> bool:
    """Whether the normalised expected answer appears in the normalised output as whole words.

    "4817" is found in "The code is 4817." but not in "48170"; an expected answer that
    normalises to nothing is never found.
    """
    wanted = normalise(expected)
    # normalise leaves single spaces between words, so padding both sides with a space
    # turns "whole words" into a plain substring test.
    return bool(wanted) and f" {wanted} " in f" {normalise(output)} "


def token_f1(output: str, expected: str) -> float:
    """Token-level F1 of the output against the expected answer, as SQuAD and LongBench report it.

    Both are normalised as for `is_correct` and split into words; F1 is the harmonic mean of the
    shares of the output's and the answer's words they have in common (counted with multiplicity).
    It gives partial credit where exact match gives none ("Dana" for "Dana Reyes": 0.67), and
    penalises padding that exact match forgives.
    """
    said, wanted = normalise(output).split(), normalise(expected).split()
    common = sum((Counter(said) & Counter(wanted)).values())
    if not common:
        return 0.0
    precision, recall = common / len(said), common / len(wanted)
    return 2 * precision * recall / (precision + recall)


# --- generating ------------------------------------------------------------------------

# Words that show a would-be subject is really a clause ("the driver said the truck").
CLAUSE_WORDS = frozenset("said says that which who when if because we i you he she they it there".split())

SENTENCE_START = r"""(?: ^ | (?<=[.!?]\s) | (?<=[.!?]["”’)]\s) | (?<=:\s) )"""  # a colon: "Agent: The ..."

# Inside a value a period, comma or colon may only join digits ("3.5", "4,500",
# "10:30"); ", 2025" after a day is allowed too. The value must end the sentence.
VALUE = r"""(?P<value> (?: [^.,;:!?\n] | [.,:](?=\d) | ,\s(?=\d{4}\b) )+? ) \.(?=\s|$)"""

FACT = re.compile(
    SENTENCE_START
    + r"""
    The \s+
    (?P<subject> [a-z][a-z-]* (?: \s+ [a-z][a-z-]* ){0,4}        # lowercase words
                 (?: \s+ of \s+ [\w&-]+ (?: \s+ [\w&-]+ ){0,3} )? ) # an optional "of ..." phrase
    \s+ (?P<verb> is | are | was | shall \s+ be ) \s+
    """
    + VALUE,
    re.VERBOSE | re.MULTILINE,
)

MAX_VALUE_WORDS = 6
# A footnote's or endnote's mark as documents read ("per crate[1]."): not part of the answer, and scoring, which
# folds it to "crate 1", would mark a right answer wrong.
NOTE_MARK = re.compile(r"\[E?\d{1,4}\]")
# The joiners that Persian, Arabic and Indic scripts write inside words: kept, unlike the other format characters.
JOINERS = "\u200c\u200d"
CAPITAL = "A-ZÀ-ÖØ-Þ"  # capital letters, Latin-1 accented ones included: re has no \p{Lu}
VALUE_START = re.compile(rf"[\d$€£¥{CAPITAL}]")

# One to four capitalised words of letters, such as "Dana Reyes" or "Siobhan O'Neill".
NAME_WORD = rf"[{CAPITAL}] [^\W\d_]* (?: ['’-] [^\W\d_]+ )*"
NAME = re.compile(rf"{NAME_WORD} (?: \s+ {NAME_WORD} ){{0,3}}", re.VERBOSE)

DEFINED_TERM = re.compile(
    r"""["“] (?P<term> [A-Z][\w-]* (?: \s+ [A-Z][\w-]* ){0,4} ) ["”]
        (?: \s+ (?: means | shall \s+ mean ) \b | \) )""",
    re.VERBOSE,
)

CODE_DEFINITION = re.compile(
    r"""^ [ \t]* (?: async \s+ )?
        (?: (?: def | function ) \s+ (?P<function> [A-Za-z]\w* ) \s* \(
          | class \s+ (?P<class> [A-Za-z]\w* ) )""",
    re.VERBOSE | re.MULTILINE,
)

VERB_QUESTION = {"is": "is", "are": "are", "was": "was", "shall be": "is"}


@dataclass(frozen=True)
class _Fact:
    document: str
    subject: str
    verb: str
    value: str


def generate_probes(docs: list[Document], limit_per_kind: int = 5) -> list[Probe]:
    """Probes whose answers can be checked without a judge: retrieval, cross-reference, multi-hop.

    At most `limit_per_kind` of each kind, taken in document order; see the module
    docstring for what each kind looks for. Deterministic. May return fewer probes,
    or none, when the documents hold no sentences of those shapes.
    """
    if limit_per_kind < 1:
        raise EngineError(f"probes per kind must be at least 1, got {limit_per_kind}")
    facts = _unambiguous(fact for doc in docs for fact in _facts(doc))
    kinds = (_retrieval(facts), _cross_references(docs), _multi_hops(docs, facts))
    return [probe for probes in kinds for probe in _first_unique(probes, limit_per_kind)]


def _first_unique(probes: Iterable[Probe], limit: int) -> list[Probe]:
    chosen: list[Probe] = []
    for probe in probes:
        if len(chosen) == limit:
            break
        if all(probe.question != other.question for other in chosen):
            chosen.append(probe)
    return chosen


def _facts(doc: Document) -> Iterator[_Fact]:
    for match in FACT.finditer(doc.text):
        subject = " ".join(match["subject"].split())
        value = _answer(match["value"])
        if _is_value(value) and not CLAUSE_WORDS.intersection(subject.split()):
            yield _Fact(doc.name, subject, " ".join(match["verb"].split()), value)


def _answer(value: str) -> str:
    """An expected answer as a reader sees it and can type it: without note marks, without the format characters
    a reader never sees (soft hyphens, zero-width spaces, bidi marks), and on one line with single spaces (a DOCX
    tab is a space to a reader). The probe form and API refuse what this leaves out."""
    visible = "".join(c for c in value if c in JOINERS or unicodedata.category(c) != "Cf")
    return " ".join(NOTE_MARK.sub("", visible).split())


def _is_value(value: str) -> bool:
    return len(value.split()) <= MAX_VALUE_WORDS and VALUE_START.match(value) is not None


def _unambiguous(facts: Iterable[_Fact]) -> list[_Fact]:
    """The first statement of each subject, leaving out subjects given different values."""
    first: dict[str, _Fact] = {}
    conflicting: set[str] = set()
    for fact in facts:
        key = fact.subject.lower()
        if key not in first:
            first[key] = fact
        elif normalise(first[key].value) != normalise(fact.value):
            conflicting.add(key)
    return [fact for key, fact in first.items() if key not in conflicting]


def _retrieval(facts: list[_Fact]) -> Iterator[Probe]:
    for fact in facts:
        question = f"What {VERB_QUESTION[fact.verb]} the {fact.subject}?"
        yield Probe(question, fact.value, "retrieval", fact.document)


def _cross_references(docs: list[Document]) -> Iterator[Probe]:
    yield from _term_references(docs)
    yield from _code_references(docs)


def _term_references(docs: list[Document]) -> Iterator[Probe]:
    definers = _defined_once({doc.name: {m["term"] for m in DEFINED_TERM.finditer(doc.text)} for doc in docs})
    for term, definer in definers.items():
        user = _first_other(docs, definer, rf"(?<!\w){re.escape(term)}(?!\w)")
        if user is not None:
            question = f'Which document defines the term "{term}" that {user} uses?'
            yield Probe(question, definer, "cross_reference", definer)


def _code_references(docs: list[Document]) -> Iterator[Probe]:
    labels: dict[str, str] = {}
    definitions: dict[str, set[str]] = {}
    for doc in docs:
        definitions[doc.name] = set()
        for match in CODE_DEFINITION.finditer(doc.text):
            name = match["function"] or match["class"]
            # Private names and dunders (__init__) make poor questions.
            if not name.startswith("_"):
                definitions[doc.name].add(name)
                labels[name] = "function" if match["function"] else "class"
    for name, definer in _defined_once(definitions).items():
        # Defined only in `definer`, so a match elsewhere is a call, not a definition.
        caller = _first_other(docs, definer, rf"(?<!\w){re.escape(name)}\(")
        if caller is not None:
            question = f"In which file is the {labels[name]} {name}, which {caller} calls, defined?"
            yield Probe(question, definer, "cross_reference", definer)


def _defined_once(definitions: dict[str, set[str]]) -> dict[str, str]:
    """Each name defined in exactly one document, mapped to that document, in document order."""
    definers: dict[str, list[str]] = {}
    for document, names in definitions.items():
        for name in sorted(names):
            definers.setdefault(name, []).append(document)
    return {name: documents[0] for name, documents in definers.items() if len(documents) == 1}


def _first_other(docs: list[Document], definer: str, pattern: str) -> str | None:
    """The first document other than `definer` whose text matches `pattern`."""
    return next((doc.name for doc in docs if doc.name != definer and re.search(pattern, doc.text)), None)


def _multi_hops(docs: list[Document], facts: list[_Fact]) -> Iterator[Probe]:
    for first in facts:
        if NAME.fullmatch(first.value) is None:
            continue
        for doc in docs:
            if doc.name == first.document:
                continue
            for attribute, value in _facts_about(doc, first.value, facts):
                question = f"What is the {attribute} of the {first.subject}?"
                yield Probe(question, value, "multi_hop", f"{first.document} + {doc.name}")


def _facts_about(doc: Document, name: str, facts: list[_Fact]) -> Iterator[tuple[str, str]]:
    """(attribute, value) stated about `name` in `doc`: "<name>'s <attribute> is <value>."
    or "The <attribute> of <name> is <value>." """
    possessive = re.compile(
        rf"""(?<!\w) {re.escape(name)} ['’]s \s+
             (?P<attribute> [a-z][a-z-]* (?: \s+ [a-z][a-z-]* ){{0,4}} ) \s+ is \s+ """
        + VALUE,
        re.VERBOSE,
    )
    for match in possessive.finditer(doc.text):
        if _is_value(value := _answer(match["value"])):
            yield " ".join(match["attribute"].split()), value
    suffix = f" of {name}"
    for fact in facts:
        if fact.document == doc.name and fact.subject.endswith(suffix):
            yield fact.subject.removesuffix(suffix), fact.value
