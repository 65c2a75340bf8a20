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
    is not taken for a value. Question: "What is the <subject>?"; answer: the value.
cross_reference
    A defined term (`"Term" means ...`, `shall mean`, `refers to`, `is defined as`,
    `has the meaning`, or `(the "Term")`; straight or curly quotes) defined in one
    document and used on its own (as whole words, not inside a longer capitalised term
    such as "Combined Work") in another; or a function or class (`def name(`,
    `function name(`, `class Name`) defined in one file and called (`name(`) in another.
    Question: which document defines it; answer: that document's name as a person names the file (`file_labels`:
    inside an uploaded archive, without the archive's name; the bare file name where it is unique).
retrieval, from a numbered heading
    A line that opens with a section number and a short capitalised heading, as contracts and licences number
    their clauses ("2. Grant of Copyright License." or "4. Service levels"), the heading ending the line or
    followed by its clause's text. Question: "What is the heading of section <N> of <document>?"; answer: the
    heading. A number that opens two such lines in one document is ambiguous and asks nothing. Real contracts
    rarely state "The X is Y.", but nearly all number their sections: on the held-out licences in
    samples/contracts this shape gave the only probes.
retrieval, from Python code
    What a function returns, what a constant is set to, which exception a function raises, which module a file
    imports a name from, a function's first parameter: read by Python's own parser (engine.core.code_probes), each
    question naming its file. Answer: the exact span of the source.
multi_hop
    A retrieval fact in document A whose value is a capitalised name ("The account
    manager of Northwind Logistics is Dana Reyes.") and, in another document B, a fact
    about that name: `<Name>'s <attribute> is <value>.` or `The <attribute> of <Name>
    is <value>.` Question: "What is the <attribute> of the <subject of A>?"; answer:
    the value from B; source "A + B".
cross_reference, the same name twice in one document
    The multi-hop above with both facts in one document, in different paragraphs (kind
    cross_reference, as every join inside one document is); source "A".
cross_reference or multi_hop, a party and the term that names it
    A party named by a defined term, `Northwind Logistics, a regional carrier (the
    "Provider")` (an appositive may come between, starting "a", "an" or "the"; a term
    the document defines twice, or gives two parties, names none), and a fact about it
    under either name. `The <attribute> of Northwind Logistics is <value>.`, in any
    document: 'What is the <attribute> of the party that <document> calls the
    "Provider"?'. `The <attribute> of the Provider is <value>.`, in the defining
    document: "What is the <attribute> of Northwind Logistics?". Answer: the value;
    passage: the defining sentence, then the fact. Neither sentence alone answers it.
absent
    A fact about a party or person, `The <attribute> of <Name> is <value>.` (or
    `<Name>'s <attribute> is <value>.`), asked of another of the same sort: another
    party the documents name by a defined term, or another person a fact gives as a
    party's contact ("<role> of <party>"). Question: "What is the <attribute> of
    <other>?"; answer: ABSENT_ANSWER ("not stated"), which any refusal the model words its
    own way satisfies (`is_correct`); passage: the fact it was modelled on. Asked only
    where nothing could give it: no statement of it, no mention of the other name, its
    words or its terms in any sentence that holds the attribute's last word ("extension"
    for "phone extension"), every such sentence naming the fact's own name (or being a
    section heading), and no elliptical "<other>'s is".
count, from numbered headings
    A document whose numbered headings (as for the heading probes) run 0 or 1 to N with
    no gap, repeat or sub-number, and in which no other line opens with a number: "How
    many numbered sections does <document> have?"; answer: N; passage: the headings.

Every generated probe is then checked against all the documents (`_holds`): its
passage (the sentences its answer comes from) stands in its source and holds the
answer; no document states a different value for what it asks; and the document it
names for a term or code name is the only one that defines it, by any of the usual
phrasings (so the document that asks never defines the term itself); a party's term
still names it in its document; an absent probe's attribute is stated nowhere for its name
(above); a count is what the document's headings give. The probes left
are taken round-robin over the documents within each kind, the kinds interleaved, and
no answer is kept for more than a third of the set (`_spread_answers`): a model that
always gives one answer cannot score more than that.
"""

from __future__ import annotations

import builtins
import json
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.abstention import says_none
from engine.core.code_probes import code_facts
from engine.core.documents import DocumentText
from engine.core.errors import EngineError
from engine.core.jsonfile import write_text_atomic

# The stored kinds: a lookup in one passage (retrieval), a join of two or more passages (a cross-reference inside a
# document, or a multi-hop across documents), a count over several, an absent fact (the right answer is a refusal,
# such as "not stated"), and "user" for a person's probe whose kind was not chosen.
KINDS = ("retrieval", "cross_reference", "multi_hop", "count", "absent", "user")
# What a manager reads: both kinds of join are one.
KIND_NAMES = {"retrieval": "lookup", "cross_reference": "join", "multi_hop": "join", "count": "count",
              "absent": "absent", "user": "kind not chosen"}
# The plain kinds in the order tables give them: lookup, join, count, absent, kind not chosen.
PLAIN_KINDS = tuple(dict.fromkeys(KIND_NAMES.values()))
FIELDS = ("question", "answer", "kind", "source", "passage")
# How a probe that rests on several sentences keeps them: its documents "a.txt + b.txt", its passage "A … B".
SOURCE_JOIN = " + "
PASSAGE_JOIN = " … "


@dataclass(frozen=True)
class ProbeQuestion:
    """A probe as the engine asks it: the question, its expected answer and kind, and where the answer stands."""

    question: str
    answer: str
    kind: str = "user"
    source: str | None = None  # where the expected answer stands, e.g. "contract.txt" or "a.txt + b.txt"
    # The sentence(s) the answer was taken from, as a reader sees them, for a person to check it against. Evidence,
    # not identity: two probes asking the same question with the same answer are equal whatever passage they keep.
    passage: str | None = field(default=None, compare=False)


# --- reading and writing ---------------------------------------------------------------


def load_probes(path: str | os.PathLike) -> list[ProbeQuestion]:
    """Read probes from a JSON Lines file, one object per line; blank lines are skipped.

    Each object has a non-empty string "question" and "answer", and optionally "kind"
    (one of KINDS, default "user") and "source". Errors name the file and the line.
    """
    path = Path(path)
    probes = [_probe(path.name, number, line) for number, line in _lines(path) if line.strip()]
    if not probes:
        raise EngineError(f"{path.name} holds no probes: write one JSON object per line")
    return probes


def save_probes(probes: Iterable[ProbeQuestion], path: str | os.PathLike) -> None:
    """Write probes as JSON Lines that load_probes reads back unchanged, whole or not at all (engine.core.jsonfile)."""
    write_text_atomic(path, "".join(json.dumps(_record(probe), ensure_ascii=False) + "\n" for probe in probes))


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    if not path.is_file():
        raise EngineError(f"{path} does not exist or is not a file")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EngineError(f"{path.name} is not valid UTF-8 text") from exc
    # Not splitlines(): it also breaks at U+2028 and friends, which JSON strings may hold.
    return enumerate(text.split("\n"), start=1)


def _probe(file: str, number: int, line: str) -> ProbeQuestion:
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
    for name in ("source", "passage"):
        if record.get(name) is not None and not isinstance(record[name], str):
            raise EngineError(f'{where}: "{name}" must be a string')
    return ProbeQuestion(_text_field(where, record, "question"), _text_field(where, record, "answer"), kind,
                 record.get("source"), record.get("passage"))


def _text_field(where: str, record: dict, field: str) -> str:
    if field not in record:
        raise EngineError(f'{where} has no "{field}"')
    value = record[field]
    if not isinstance(value, str):
        raise EngineError(f'{where}: "{field}" must be a string, not {type(value).__name__}')
    if not value.strip():
        raise EngineError(f'{where}: "{field}" is empty')
    return value


def _record(probe: ProbeQuestion) -> dict[str, str]:
    record = {"question": probe.question, "answer": probe.answer, "kind": probe.kind}
    for name in ("source", "passage"):
        if (value := getattr(probe, name)) is not None:
            record[name] = value
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
    normalises to nothing is never found. An expected answer that is a refusal ("not stated",
    an absent probe's) is matched by any refusal the model words its own way (engine.core.abstention).
    """
    if says_none(expected):
        return says_none(output)
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

DEFAULT_LIMIT = 30  # probes a generation yields at most, unless told otherwise

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

# How documents define a term: `"Term" means`, `The "Library", below, refers to`, `‘Term’ is defined as`, ...
DEFINING_WORDS = r"""(?: means | shall \s+ mean | (?: shall \s+ )? ha(?:s|ve) \s+ the \s+ meaning
                       | (?: shall \s+ )? refers? \s+ to | (?: is | are | shall \s+ be ) \s+ defined \s+ as )"""


def _term_definition(term: str, *, loose: bool) -> re.Pattern:
    """A definition of `term` (a regular expression): quoted, then defining words (an aside such as ", below," may
    come between); or quoted in parentheses after a space, perhaps after a few words: `Acme Corp. ("Acme")`,
    `(the "Term")`, `(also called "this License")`. The quoted term is the group "term" or "parenthesised".
    The space before the parenthesis, and only words before the quote, leave out code's calls, arguments and
    tuples: `f("Term")`, `default="UTC")`, `("member", "Member")`.

    Loose also takes straight single quotes; "this", "the" or "a" inside the quotes (`"The Program" refers to`);
    a few words before the defining ones (`"Source code" for a work means`); `referred to as "Term"`, `known as`,
    `hereinafter`; `"Term":` and `Term: means`. Some of these are too common outside definitions (quoted code,
    JSON keys) to find terms by, but all are worth heeding before naming another document as a term's only
    definer.
    """
    opening, closing = ("\"“‘'", "\"”’'") if loose else ("\"“‘", "\"”’")
    determiner = r"(?: (?i: this | the | an? ) \s+ )?" if loose else ""

    def quoted(group: str) -> str:
        return rf"[{opening}] \s* {determiner} (?P<{group}> {term} ) \s* [{closing}]"

    aside = r", [^,.;\n]{1,40} ," + (r" | (?: \s+ [\w-]+ ){1,4}" if loose else "")
    endings = rf"(?: \s* (?: {aside} ) )? \s+ {DEFINING_WORDS} \b" + (r" | \s* :" if loose else "")
    pattern = rf"{quoted('term')} (?: {endings} ) | (?<!\S) \( [\w\s,]{{0,40}}? {quoted('parenthesised')} \s* \)"
    if loose:
        naming = r"(?i: referred \s+ to \s+ as | known \s+ as | hereinafter )"
        pattern += (rf" | (?<!\w) {term} \s* : \s* means \b"
                    rf" | \b {naming} \s+ [{opening}] \s* {determiner} {term} \s* [{closing}]")
    return re.compile(pattern, re.VERBOSE)


DEFINED_TERM = _term_definition(r"[A-Z][\w-]* (?: \s+ [A-Z][\w-]* ){0,4}", loose=False)

CODE_DEFINITION = re.compile(
    r"""^ [ \t]* (?: async \s+ )?
        (?: (?: def | function ) \s+ (?P<function> [A-Za-z]\w* ) \s* \(
          | class \s+ (?P<class> [A-Za-z]\w* ) )""",
    re.VERBOSE | re.MULTILINE,
)

# Code names defined in most languages: def, function, func, fn, class, struct, ...; `const name =`;
# `name = lambda` or `name = function`. Wider than CODE_DEFINITION, to heed before naming a file as a name's only
# definer.
ANY_CODE_DEFINITION = re.compile(
    r"""^ [ \t]* (?: (?: export | default | async | public | private | protected | static | pub ) \s+ )*
         (?: (?: def | function | func | fn | fun | sub | class | struct | interface | enum | trait | type )
             \s+ (?P<declared> \w+ )
           | (?: const | let | var ) \s+ (?P<assigned> \w+ ) \s* = )
       | (?<![\w.]) (?P<bound> \w+ ) [ \t]* = [ \t]* (?: function | lambda ) \b""",
    re.VERBOSE | re.MULTILINE,
)

# Where a sentence ends: a full stop, question or exclamation mark (perhaps closing a quote or parenthesis) before
# a space, or a blank line. Licence texts wrap sentences over lines, so a single line break does not end one.
SENTENCE_BREAK = re.compile(r"""[.!?]["”’)]?(?=\s|$) | \n[ \t]*\n""", re.VERBOSE)
SENTENCE_REACH = 400  # characters looked at on each side of a span for its sentence: bounds work and passage

VERB_QUESTION = {"is": "is", "are": "are", "was": "was", "shall be": "is"}
# "2. Grant of Copyright License. Subject to ..." or "4. Service levels": a line's section number and heading. The
# heading starts with a capital and stops at its first period, colon or the line's end; text may follow a period.
HEADING = re.compile(r"""^ [ \t]* (?P<number> \d{1,3} (?: \.\d{1,2} )? ) \.? [ \t]+
                         (?P<heading> [A-Z][^\n.:;]{1,80}? ) [ \t]* (?: [.:] (?= [ \t] | $ ) | $ )""",
                     re.VERBOSE | re.MULTILINE)
MAX_HEADING_WORDS = 8
# Any line that opens with a number, as a section, a sub-section or a wrapped sentence may: a document with one that
# is not among its headings has no sure count of sections.
NUMBERED_LINE = re.compile(r"^[ \t]* \d{1,3} (?: \.\d{1,2} )* [.)]? [ \t]", re.VERBOSE | re.MULTILINE)
MIN_SECTIONS = 3  # fewer numbered headings make no count worth asking
PARAGRAPH_BREAK = re.compile(r"\n[ \t\r]*\n")

# A party named by a defined term: `Northwind Logistics, a regional carrier of goods (the "Provider")`. The appositive
# starts with an article, holds no ", and" or ", or" and crosses no paragraph, so that in `A, a grocer, and B, a
# carrier (the "Parties")` A is not taken for the Parties (nor B: `_second_of_two`).
PARTY = re.compile(
    rf"""(?<![\w'’-]) (?P<name> {NAME_WORD} (?: [ \t]+ {NAME_WORD} ){{0,3}} )
         (?: , \s+ (?i: an? | the ) \s (?: (?! , \s+ (?: and | or ) \b | \n [ \t]* \n ) [^();"“”] ){{1,120}}? )?
         \s* \( \s* (?i: the \s+ )? ["“] (?P<term> {NAME_WORD} (?: \s+ {NAME_WORD} ){{0,2}} ) ["”] \s* \)""",
    re.VERBOSE,
)
COORDINATOR = re.compile(r"(?<!\w)(?:and|or|&)\s+$")
AFTER_A_TERM = re.compile(r"\)\s*,?\s*(?:and|or|&)\s+$")
# What an absent probe expects: a refusal, which `is_correct` takes in any of the model's wordings.
ABSENT_ANSWER = "not stated"


@dataclass(frozen=True)
class _Fact:
    document: str
    subject: str
    verb: str
    value: str
    sentence: str  # as a reader sees it
    paragraph: int  # how many blank lines come before it in its document


@dataclass(frozen=True)
class _Candidate:
    """A generated probe before it is checked, with what it rests on (see `_holds`)."""

    probe: ProbeQuestion
    evidence: tuple[tuple[str, str], ...]  # (document, sentence as read) for each sentence the answer comes from
    states: tuple[tuple[str, str], ...] = ()  # (subject, value): no document may give the subject another value
    defines: tuple[str, bool] | None = None  # (term or code name, whether code): only the answer may define it
    agrees: tuple[tuple[str, str], ...] = ()  # (subject, value): as states, but the subject may be stated nowhere
    party: tuple[str, str, str] | None = None  # (document, term, name): the document names that party by the term
    absent: tuple[str, str, str] | None = None  # (attribute, name asked, name of the fact): nothing gives it
    counted: str | None = None  # a document whose numbered sections are as many as the answer says


def generate_probes(docs: list[DocumentText], limit: int = DEFAULT_LIMIT) -> list[ProbeQuestion]:
    """Up to `limit` probes whose answers can be checked without a judge: retrieval, cross-reference, multi-hop,
    absent and count.

    Each is checked against all the documents, then they are spread: round-robin over the documents within each
    kind, the kinds interleaved, and no answer kept for more than a third of the set. Each keeps its passage.
    Deterministic. May return fewer, or none, when the documents hold no sentences of the shapes sought (see the
    module docstring).
    """
    if limit < 1:
        raise EngineError(f"the number of probes to generate must be at least 1, got {limit}")
    corpus = _Corpus(docs)
    kinds = (_retrieval(corpus), _cross_references(corpus), _multi_hops(corpus), _party_joins(corpus),
             _absent(corpus), _headings(corpus), _counts(corpus), _code(corpus))
    checked = [[candidate.probe for candidate in candidates if _holds(candidate, corpus)] for candidates in kinds]
    spread = _interleave(_interleave(_by_document(probes)) for probes in checked)
    return _spread_answers(list(_unique_questions(spread)), limit)


class _Corpus:
    """The documents as generation reads them: each text as a reader sees it, the facts stated in them, and every
    value given to each subject ("notice period", "phone extension of Dana Reyes"), and the parties each document
    names by a defined term."""

    def __init__(self, docs: list[DocumentText]):
        self.docs = docs
        self.text = {doc.name: doc.text for doc in docs}
        self.label = file_labels([doc.name for doc in docs])
        self.read = {doc.name: _as_read(doc.text) for doc in docs}
        self.folded = {doc.name: doc.text.casefold() for doc in docs}  # to skip documents a term is not in, fast
        self.facts = [fact for doc in docs for fact in _facts(doc)]
        # What each document says about each name a fact gives: "Dana Reyes's phone extension is 4412." as
        # the fact "phone extension of Dana Reyes", beside "The phone extension of Dana Reyes is 4412."
        names = {fact.value for fact in self.facts if NAME.fullmatch(fact.value)}
        self.about = {name: [*_possessives(docs, name), *(f for f in self.facts if f.subject.endswith(f" of {name}"))]
                      for name in sorted(names)}
        self.code_names = {doc.name: {m["declared"] or m["assigned"] or m["bound"]
                                      for m in ANY_CODE_DEFINITION.finditer(doc.text)} for doc in docs}
        self.stated: dict[str, set[str]] = {}
        for fact in [*self.facts, *(fact for facts in self.about.values() for fact in facts)]:
            self.stated.setdefault(fact.subject.lower(), set()).add(normalise(fact.value))
        self.parties = {doc.name: _parties(doc) for doc in docs}

    def definers(self, name: str, code: bool) -> set[str]:
        """The documents that define `name` by any of the usual phrasings (a term) or definitions (code)."""
        if code:
            return {document for document, names in self.code_names.items() if name in names}
        # Any case: a document that defines "license" defines "License" too.
        words = r"\s+".join(map(re.escape, name.split()))
        pattern = _term_definition(rf"(?i: {words} )", loose=True)
        first_word = name.split()[0].casefold()
        return {doc.name for doc in self.docs if first_word in self.folded[doc.name] and pattern.search(doc.text)}


def _holds(candidate: _Candidate, corpus: _Corpus) -> bool:
    """Whether a generated probe holds in the documents, so that a person checking it would agree.

    Each sentence of its passage stands in its document, as a reader sees it. A fact's answer is an exact span of
    the sentence it comes from, and no document gives what it asks about (the subject, or for multi-hop both
    subjects) another value; the subject asked under a party's other name included, and the term still names the
    party in its document. A cross-reference's answer is the document its defining sentence comes from, and
    no other document defines the term or code name by any usual phrasing: the document that asks included.
    An absent probe's attribute is stated nowhere for its name (`_unstated`); a count is what the headings give.
    """
    probe = candidate.probe
    if not all(sentence in corpus.read[document] for document, sentence in candidate.evidence):
        return False
    if candidate.defines is not None:
        definer = candidate.evidence[0][0]
        return probe.answer == corpus.label[definer] and corpus.definers(*candidate.defines) == {definer}
    if candidate.absent is not None:
        return probe.answer == ABSENT_ANSWER and _unstated(corpus, *candidate.absent)
    if candidate.counted is not None:
        return probe.answer == str(len(_numbered_sections(corpus.text[candidate.counted])))
    if candidate.party is not None:
        document, term, name = candidate.party
        if corpus.parties[document].get(term, ("",))[0] != name:
            return False
    return (probe.answer in candidate.evidence[-1][1]
            and all(corpus.stated.get(subject.lower()) == {normalise(value)} for subject, value in candidate.states)
            and all(corpus.stated.get(subject.lower(), {normalise(value)}) == {normalise(value)}
                    for subject, value in candidate.agrees))


def _candidate(question: str, answer: str, kind: str, evidence: tuple[tuple[str, str], ...], **claims) -> _Candidate:
    # Each document once: a join inside one document rests on "a.txt", not "a.txt + a.txt".
    source = SOURCE_JOIN.join(dict.fromkeys(document for document, _ in evidence))
    passage = PASSAGE_JOIN.join(sentence for _, sentence in evidence)
    return _Candidate(ProbeQuestion(question, answer, kind, source, passage), evidence, **claims)


def _facts(doc: DocumentText) -> Iterator[_Fact]:
    for match in FACT.finditer(doc.text):
        subject = " ".join(match["subject"].split())
        value = _as_read(match["value"])
        if _is_value(value) and not CLAUSE_WORDS.intersection(subject.split()):
            sentence = _sentence(doc.text, match.start(), match.end())
            yield _Fact(doc.name, subject, " ".join(match["verb"].split()), value, sentence,
                        _paragraph(doc.text, match.start()))


def _possessives(docs: list[DocumentText], name: str) -> Iterator[_Fact]:
    """"<name>'s <attribute> is <value>." in any document, as the fact "<attribute> of <name>"."""
    pattern = re.compile(
        rf"""(?<!\w) {re.escape(name)} ['’]s \s+
             (?P<attribute> [a-z][a-z-]* (?: \s+ [a-z][a-z-]* ){{0,4}} ) \s+ is \s+ """
        + VALUE,
        re.VERBOSE,
    )
    for doc in docs:
        if name not in doc.text:  # most documents never mention the name: skip the regular expression
            continue
        for match in pattern.finditer(doc.text):
            if _is_value(value := _as_read(match["value"])):
                attribute = " ".join(match["attribute"].split())
                sentence = _sentence(doc.text, match.start(), match.end())
                yield _Fact(doc.name, f"{attribute} of {name}", "is", value, sentence,
                            _paragraph(doc.text, match.start()))


def _paragraph(text: str, start: int) -> int:
    return len(PARAGRAPH_BREAK.findall(text, 0, start))


def _as_read(text: str) -> str:
    """Text as a reader sees it and can type it: without note marks, without the format characters a reader never
    sees (soft hyphens, zero-width spaces, bidi marks), and on one line with single spaces (a DOCX tab is a space
    to a reader). Answers are taken this way; the probe form and API refuse what it leaves out."""
    visible = "".join(c for c in text if c in JOINERS or unicodedata.category(c) != "Cf")
    return " ".join(NOTE_MARK.sub("", visible).split())


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence(s) holding text[start:end], as a reader sees them; at most SENTENCE_REACH characters more
    on either side."""
    before = text[max(0, start - SENTENCE_REACH):start]
    breaks = list(SENTENCE_BREAK.finditer(before))
    begin = start - len(before) + (breaks[-1].end() if breaks else 0)
    # From the span's last character, so that a span ending its sentence ("... is 90 days.") ends the passage.
    after = SENTENCE_BREAK.search(text, max(start, end - 1), end + SENTENCE_REACH)
    return _as_read(text[begin:after.end() if after else end + SENTENCE_REACH])


def _is_value(value: str) -> bool:
    return len(value.split()) <= MAX_VALUE_WORDS and VALUE_START.match(value) is not None


def _first_statements(facts: Iterable[_Fact]) -> list[_Fact]:
    """The first statement of each subject; `_holds` leaves out those another statement gives another value."""
    first: dict[str, _Fact] = {}
    for fact in facts:
        first.setdefault(fact.subject.lower(), fact)
    return list(first.values())


def _retrieval(corpus: _Corpus) -> Iterator[_Candidate]:
    for fact in _first_statements(corpus.facts):
        question = f"What {VERB_QUESTION[fact.verb]} the {fact.subject}?"
        yield _candidate(question, fact.value, "retrieval", ((fact.document, fact.sentence),),
                         states=((fact.subject, fact.value),))


def _headings(corpus: _Corpus) -> Iterator[_Candidate]:
    for doc in corpus.docs:
        found = [(m["number"], _as_read(m["heading"]), m) for m in _heading_matches(doc.text)]
        count = Counter(number for number, _, _ in found)
        for number, heading, match in found:
            if count[number] == 1:
                yield _candidate(f"What is the heading of section {number} of {corpus.label[doc.name]}?", heading,
                                 "retrieval", ((doc.name, _heading_line(doc.text, match)),))


def _heading_matches(text: str) -> list[re.Match]:
    return [m for m in HEADING.finditer(text) if len(m["heading"].split()) <= MAX_HEADING_WORDS]


def _heading_line(text: str, match: re.Match) -> str:
    """The whole line a heading opens, as read: a licence's heading is often followed by its clause's text."""
    return _as_read(text[match.start():text.find("\n", match.end()) % (len(text) + 1)])


def _counts(corpus: _Corpus) -> Iterator[_Candidate]:
    for doc in corpus.docs:
        if lines := _numbered_sections(doc.text):
            yield _candidate(f"How many numbered sections does {corpus.label[doc.name]} have?", str(len(lines)),
                             "count", tuple((doc.name, line) for line in lines), counted=doc.name)


def _numbered_sections(text: str) -> list[str]:
    """The heading lines of a document whose headings are numbered 0 or 1 to N in order, without a gap, repeat or
    sub-number, and in which no other line opens with a number (a list item, a wrapped sentence, a heading too long
    to be taken for one): elsewhere "how many sections" has no sure answer, and there are none."""
    found = _heading_matches(text)
    first = 0 if found and found[0]["number"] == "0" else 1
    if (len(found) < MIN_SECTIONS or [m["number"] for m in found] != [str(first + i) for i in range(len(found))]
            or len(NUMBERED_LINE.findall(text)) != len(found)):
        return []
    return [_heading_line(text, m) for m in found]


def _code(corpus: _Corpus) -> Iterator[_Candidate]:
    for doc in corpus.docs:
        if doc.name.endswith(".py"):
            for fact in code_facts(doc.text, corpus.label[doc.name]):
                yield _candidate(fact.question, fact.answer, "retrieval",
                                 tuple((doc.name, _as_read(lines)) for lines in fact.lines))


def _cross_references(corpus: _Corpus) -> Iterator[_Candidate]:
    yield from _term_references(corpus.docs, corpus.label)
    yield from _code_references(corpus.docs, corpus.label)


def _term_references(docs: list[DocumentText], label: dict[str, str]) -> Iterator[_Candidate]:
    for term, (definer, sentence) in _first_definitions(
            (doc, " ".join((match["term"] or match["parenthesised"]).split()), match)
            for doc in docs for match in DEFINED_TERM.finditer(doc.text)).items():
        user = _first_other(docs, definer, _standalone_use(term))
        if user is not None:
            question = f'Which document defines the term "{term}" that {label[user]} uses?'
            yield _candidate(question, label[definer], "cross_reference", ((definer, sentence),),
                             defines=(term, False))


# Words that may stand before a term used on its own: "the Work" uses "Work"; "Combined Work" does not.
DETERMINERS = frozenset("The This That These Those A An Any Each Every No Such Our Your Its Their".split())


def _standalone_use(term: str) -> Callable[[str], bool]:
    """Whether a text uses `term` on its own, as whole words, not as part of a longer capitalised term: LGPL-3's
    "Combined Work" does not use Apache-2.0's "Work"."""
    words = r"\s+".join(map(re.escape, term.split()))
    pattern = re.compile(rf"(?: (?P<before> [{CAPITAL}][\w-]* ) \s+ )? (?<!\w) {words} (?!\w) (?! \s+ [{CAPITAL}] )",
                         re.VERBOSE)
    # The plain search first: the regular expression, with no literal start, is slow on texts without the term.
    first = term.split()[0]
    return lambda text: first in text and any(m["before"] in (None, *DETERMINERS) for m in pattern.finditer(text))


BUILTINS = frozenset(dir(builtins))


def _code_references(docs: list[DocumentText], label: dict[str, str]) -> Iterator[_Candidate]:
    labels: dict[str, str] = {}
    found = []
    for doc in docs:
        for match in CODE_DEFINITION.finditer(doc.text):
            name = match["function"] or match["class"]
            # Private names and dunders (__init__) make poor questions; a method named like a builtin (`dict`) is
            # "called" by every file that calls the builtin.
            if not name.startswith("_") and name not in BUILTINS:
                found.append((doc, name, match))
                labels.setdefault(name, "function" if match["function"] else "class")
    for name, (definer, line) in _first_definitions(found).items():
        call = re.compile(rf"(?<!\w){re.escape(name)}\(")
        # The plain search first, as in _standalone_use.
        caller = _first_other(docs, definer, lambda text: f"{name}(" in text and call.search(text) is not None)
        if caller is not None:
            question = f"In which file is the {labels[name]} {name}, which {label[caller]} calls, defined?"
            yield _candidate(question, label[definer], "cross_reference", ((definer, line),), defines=(name, True))


def file_labels(names: list[str]) -> dict[str, str]:
    """Each document's name as a person names the file, for questions and answers: inside an uploaded archive
    without the archive's own name ("codebase.zip/src/app.py" is "src/app.py"), and the bare file name ("app.py")
    where no other document has it. Every answer carried a `codebase.zip/` prefix that no reader would type."""
    inner = {name: ARCHIVE_PREFIX.sub("", name) for name in names}
    bare = Counter(path.rsplit("/", 1)[-1] for path in inner.values())
    return {name: path.rsplit("/", 1)[-1] if bare[path.rsplit("/", 1)[-1]] == 1 else path
            for name, path in inner.items()}


ARCHIVE_PREFIX = re.compile(r"^[^/]+\.(?:zip|tar|tgz|tar\.gz|tar\.bz2|tar\.xz)/", re.IGNORECASE)


def _first_definitions(found: Iterable[tuple[DocumentText, str, re.Match]]) -> dict[str, tuple[str, str]]:
    """Each name mapped to the first document that defines it and the sentence that does; `_holds` leaves out
    names another document defines too."""
    first: dict[str, tuple[str, str]] = {}
    for doc, name, match in found:
        if name not in first:
            first[name] = (doc.name, _sentence(doc.text, match.start(), match.end()))
    return first


def _first_other(docs: list[DocumentText], definer: str, uses: Callable[[str], bool]) -> str | None:
    """The first document other than `definer` whose text `uses` says uses the name."""
    return next((doc.name for doc in docs if doc.name != definer and uses(doc.text)), None)


def _multi_hops(corpus: _Corpus) -> Iterator[_Candidate]:
    for first in _first_statements(corpus.facts):
        for second in corpus.about.get(first.value, ()):
            # In one document only from another paragraph: two neighbouring sentences are one passage to read.
            if (second.document, second.paragraph) != (first.document, first.paragraph):
                attribute = second.subject.removesuffix(f" of {first.value}")
                question = f"What is the {attribute} of the {first.subject}?"
                evidence = ((first.document, first.sentence), (second.document, second.sentence))
                yield _candidate(question, second.value, _join_kind(evidence), evidence,
                                 states=((first.subject, first.value), (second.subject, second.value)))


def _join_kind(evidence: tuple[tuple[str, str], ...]) -> str:
    """A join inside one document is a cross-reference; across documents, a multi-hop."""
    return "cross_reference" if len({document for document, _ in evidence}) == 1 else "multi_hop"


def _parties(doc: DocumentText) -> dict[str, tuple[str, str]]:
    """The parties `doc` names by a defined term, each term mapped to the party's name and the defining sentence. A
    term the document defines more than once, by any usual phrasing, or for two names, names none."""
    found: dict[str, list[tuple[str, str]]] = {}
    for match in PARTY.finditer(doc.text):
        if _second_of_two(doc.text, match.start()):
            continue
        sentence = _sentence(doc.text, match.start(), match.end())
        found.setdefault(" ".join(match["term"].split()), []).append((" ".join(match["name"].split()), sentence))
    return {term: named[0] for term, named in found.items() if len(named) == 1 and _definitions(term, doc.text) == 1}


def _second_of_two(text: str, start: int) -> bool:
    """Whether the name at `start` follows "and" or "or" that do not follow a party's own term: in `A, a grocer, and
    B, a carrier (the "Parties")` the term is both's, while in `A (the "Buyer"), and B (the "Seller")` it is B's."""
    before = text[max(0, start - 20):start]
    return COORDINATOR.search(before) is not None and AFTER_A_TERM.search(before) is None


def _definitions(term: str, text: str) -> int:
    """How many times `text` defines `term`, by any usual phrasing, in any case."""
    words = r"\s+".join(map(re.escape, term.split()))
    return sum(1 for _ in _term_definition(rf"(?i: {words} )", loose=True).finditer(text))


def _party_joins(corpus: _Corpus) -> Iterator[_Candidate]:
    """A fact about a party asked under the term a document names it by, and one stated under the term asked under
    the party's name: either way the defining sentence and the fact are both needed."""
    for document, parties in corpus.parties.items():
        for term, (name, definition) in parties.items():
            for fact in _facts_of(corpus.facts, name):
                attribute = fact.subject.removesuffix(f" of {name}")
                question = f'What is the {attribute} of the party that {corpus.label[document]} calls the "{term}"?'
                evidence = ((document, definition), (fact.document, fact.sentence))
                yield _candidate(question, fact.value, _join_kind(evidence), evidence, party=(document, term, name),
                                 states=((fact.subject, fact.value),),
                                 agrees=((f"{attribute} of the {term}", fact.value),))
            # Under the term only in its own document: another document's "Provider" may be another party.
            for fact in _facts_of((f for f in corpus.facts if f.document == document), f"the {term}"):
                attribute = fact.subject.removesuffix(f" of the {term}")
                evidence = ((document, definition), (document, fact.sentence))
                yield _candidate(f"What is the {attribute} of {name}?", fact.value, "cross_reference", evidence,
                                 party=(document, term, name), states=((fact.subject, fact.value),),
                                 agrees=((f"{attribute} of {name}", fact.value),))


def _facts_of(facts: Iterable[_Fact], name: str) -> list[_Fact]:
    """The first statement of each attribute the facts give `name`: "The <attribute> of <name> is <value>."."""
    return _first_statements(fact for fact in facts if fact.subject.endswith(f" of {name}"))


def _absent(corpus: _Corpus) -> Iterator[_Candidate]:
    """Each attribute a fact gives a party or person, asked of each other one of the same sort (see `_unstated`)."""
    parties = sorted({name for parties in corpus.parties.values() for name, _ in parties.values()})
    # People the documents give as a party's contact ("The account manager of Northwind Logistics is Dana Reyes."):
    # not every name a fact gives, so that no question asks a town for a phone extension.
    people = sorted({fact.value for fact in corpus.facts if NAME.fullmatch(fact.value)
                     and any(fact.subject.endswith(f" of {party}") for party in parties)})
    for group in (parties, people):
        for name in group:
            for fact in _facts_of([*corpus.facts, *corpus.about.get(name, ())], name):
                attribute = fact.subject.removesuffix(f" of {name}")
                for other in group:
                    if other != name:
                        yield _candidate(f"What is the {attribute} of {other}?", ABSENT_ANSWER, "absent",
                                         ((fact.document, fact.sentence),), absent=(attribute, other, name))


def _unstated(corpus: _Corpus, attribute: str, name: str, known: str) -> bool:
    """Whether no document could give `name`'s `attribute`, asked by an absent probe modelled on `known`'s.

    No fact states it; no document says "<name>'s is" or "that of <name>" (the attribute left to the sentence
    before); and every sentence that holds the attribute's last word (or its plural: "extension" for "phone
    extension") names `known` or is a section heading, and mentions neither a word of `name` nor a term a document
    names it by, in any case: "the bakery's account manager" may be Harbor Lane Bakery's, "your account manager"
    anyone's, and "Priya's extension" her phone extension.
    """
    if f"{attribute} of {name}".lower() in corpus.stated:
        return False
    names = [name, *(term for parties in corpus.parties.values() for term, (party, _) in parties.items()
                     if party == name)]
    either = "|".join(re.escape(n) for n in names)
    elliptical = re.compile(rf"(?<!\w)(?:{either})['’]s\s+(?:is|are|was)\b|\bthat\s+of\s+(?:the\s+)?(?:{either})\b")
    words = "|".join(re.escape(word) for n in names for word in n.split())
    mentioned = re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.IGNORECASE)
    # The attribute's last word, wider than all of it: "Priya's extension is 4410" gives her phone extension.
    named = re.compile(rf"(?<!\w){re.escape(attribute.split()[-1])}(?:e?s)?(?!\w)", re.IGNORECASE)
    for text in corpus.text.values():
        if elliptical.search(text):
            return False
        for match in named.finditer(text):
            sentence = _sentence(text, match.start(), match.end())
            if mentioned.search(sentence) or not (known in sentence or _in_heading(text, match.start())):
                return False
    return True


def _in_heading(text: str, at: int) -> bool:
    """Whether text[at] is in a line that holds a numbered heading and nothing else."""
    start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at) % (len(text) + 1)
    match = HEADING.match(text, start)
    return match is not None and match.end() >= at and not text[match.end():end].strip()


# --- spreading -------------------------------------------------------------------------


def _by_document(probes: list[ProbeQuestion]) -> list[list[ProbeQuestion]]:
    """The probes grouped by the document their answer first rests on, in order."""
    groups: dict[str, list[ProbeQuestion]] = {}
    for probe in probes:
        groups.setdefault(probe.source.split(SOURCE_JOIN)[0], []).append(probe)
    return list(groups.values())


def _interleave(groups: Iterable[Iterable[ProbeQuestion]]) -> Iterator[ProbeQuestion]:
    """One from each group in turn, leaving out spent groups, until all are spent."""
    pending = [iter(group) for group in groups]
    while pending:
        still = []
        for group in pending:
            if (probe := next(group, None)) is not None:
                yield probe
                still.append(group)
        pending = still


def _unique_questions(probes: Iterable[ProbeQuestion]) -> Iterator[ProbeQuestion]:
    seen: set[str] = set()
    for probe in probes:
        if probe.question not in seen:
            seen.add(probe.question)
            yield probe


def _spread_answers(probes: list[ProbeQuestion], limit: int) -> list[ProbeQuestion]:
    """Up to `limit` of the probes, in their order, no answer (normalised) kept more than `_share` times.

    The set is as large as it can be while every answer keeps to its share of it; then the probes are taken in
    order, each skipped whose answer already has its share. So the probes left out are those with the commonest
    answers, and a set that keeps to the shares anyway is just the first `limit`.
    """
    counts = Counter(normalise(probe.answer) for probe in probes).values()
    size = next((n for n in range(min(limit, len(probes)), 0, -1)
                 if sum(min(count, _share(n)) for count in counts) >= n), 0)
    taken: Counter[str] = Counter()
    chosen = []
    for probe in probes:
        if len(chosen) == size:
            break
        if taken[answer := normalise(probe.answer)] < _share(size):
            taken[answer] += 1
            chosen.append(probe)
    return chosen


def _share(size: int) -> int:
    """How many probes of a set of `size` may share one answer: a third, and one each in a set of under six."""
    return max(1, size // 3)
