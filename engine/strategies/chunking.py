"""Splitting documents into overlapping chunks of at most a given number of tokens.

A document is first cut into *units* along natural boundaries:
- source code (known by its file extension, see CODE_EXTENSIONS) breaks before each
  top-level definition: a line at column 0 that starts with one of DEFINITION_STARTS,
  together with the decorator, attribute and comment lines directly above it;
- everything else breaks after each paragraph (a run of blank lines).

Units are packed greedily, whole, into chunks of at most `chunk_tokens` tokens. A unit
too long for a chunk on its own is cut at token boundaries instead, into chunks that
hold nothing else but the overlap. Each chunk after the first begins with the trailing
units (trailing tokens, inside a cut unit) of the previous chunk, at most
`overlap_tokens` tokens of them, so a fact that straddles a boundary is still seen
whole by one chunk.

Every chunk's text is an exact slice of the document's text, stripped of surrounding
whitespace, and `Chunk.start` says where it begins. The slices together cover every
character of the document except whitespace at the joins, so nothing is ever dropped.

Cuts inside a unit use the tokenizer's character offsets rather than decoding token
slices: a byte-level tokenizer may split one character over two tokens, and a decoded
half would come back as U+FFFD and stop the chunk being a slice of the document.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePath
from typing import TYPE_CHECKING

from engine.core.documents import DocumentText
from engine.core.errors import EngineError

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase as Tokenizer

MIN_CHUNK_TOKENS = 16

CODE_EXTENSIONS = frozenset(".py .js .ts .go .rs .java .c .cpp .h .rb .php .cs .kt .swift .scala .sh".split())

# Words that open a top-level definition in the languages above. A flat list, not a
# parser per language: it only has to find good places to cut, not understand code.
DEFINITION_STARTS = (
    "def ", "async def ", "class ", "function ", "async function ", "func ", "fn ", "pub fn ",
    "pub struct ", "pub enum ", "pub trait ", "impl ", "struct ", "enum ", "trait ", "interface ",
    "type ", "module ", "object ", "fun ", "public ", "private ", "protected ", "internal ",
    "static ", "export ",
)  # fmt: skip
DEFINITION_LINE = re.compile("|".join(re.escape(start) for start in DEFINITION_STARTS))

# Lines that belong to the definition below them: decorators (@...), Rust attributes
# (#[...]) and comments (#, //, /*, and " *" continuing a block comment).
LEADING_LINE = re.compile(r"@|\#|//|/\*|\s\*")

# A paragraph ends after one or more blank lines (lines holding only whitespace).
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")


@dataclass(frozen=True)
class Chunk:
    document: str  # DocumentText.name
    index: int  # 0-based within its document
    text: str
    n_tokens: int  # tokens of `text` under the tokenizer (no special tokens)
    start: int  # character offset of `text` in the document's text

    @property
    def end(self) -> int:
        """Character offset just past `text` in the document's text."""
        return self.start + len(self.text)


def split_documents(
    docs: Iterable[DocumentText], tokenizer: Tokenizer, chunk_tokens: int, overlap_tokens: int
) -> list[Chunk]:
    """Split every document (see split_document); chunks come in document order."""
    return [chunk for doc in docs for chunk in split_document(doc, tokenizer, chunk_tokens, overlap_tokens)]


def split_document(doc: DocumentText, tokenizer: Tokenizer, chunk_tokens: int, overlap_tokens: int) -> list[Chunk]:
    """Split one document into chunks of at most `chunk_tokens` tokens.

    `tokenizer` is a Hugging Face fast tokenizer (it must report character offsets).
    Each chunk after the first repeats at most `overlap_tokens` tokens from the end of
    the previous one. Deterministic: the same inputs always give the same chunks.
    """
    check_sizes(chunk_tokens, overlap_tokens)
    return _Splitter(doc, tokenizer, chunk_tokens, overlap_tokens).chunks()


def check_sizes(chunk_tokens: int, overlap_tokens: int) -> None:
    if chunk_tokens < MIN_CHUNK_TOKENS:
        raise EngineError(f"chunk size must be at least {MIN_CHUNK_TOKENS} tokens, got {chunk_tokens}")
    if not 0 <= overlap_tokens < chunk_tokens:
        raise EngineError(
            f"overlap must be at least 0 and smaller than the chunk size ({chunk_tokens} tokens), got {overlap_tokens}"
        )


@dataclass(frozen=True)
class _Piece:
    """A span of the document never split further: a whole unit, or one token of a cut unit."""

    start: int
    end: int
    n_tokens: int  # counted alone; a joined chunk is counted again, since joins can merge tokens
    unit: int  # which unit it belongs to
    cut: bool  # whether that unit was too long for one chunk and is cut into tokens


class _Splitter:
    """The pieces of one document and the packing of them into chunks."""

    def __init__(self, doc: DocumentText, tokenizer: Tokenizer, chunk_tokens: int, overlap_tokens: int) -> None:
        self.doc = doc
        self.tokenizer = tokenizer
        self.chunk_tokens = chunk_tokens
        self.overlap_tokens = overlap_tokens
        self.pieces = [piece for unit, span in enumerate(_units(doc)) for piece in self._unit_pieces(unit, *span)]

    def chunks(self) -> list[Chunk]:
        chunks: list[Chunk] = []
        first = stop = 0  # pieces [first, stop) make up the latest chunk
        while stop < len(self.pieces):
            first = self._overlap_start(first, stop) if chunks else 0
            first, stop = self._pack(first, stop)
            chunk = self._chunk(first, stop, index=len(chunks))
            # When only whitespace was new, the previous chunk already holds all of it.
            if chunk.text and (not chunks or chunk.end > chunks[-1].end):
                chunks.append(chunk)
        return chunks

    def _count(self, text: str) -> int:
        # verbose=False: a whole document may be longer than the model's context, and
        # the tokenizer would warn about that although nothing goes to the model here.
        return len(self.tokenizer(text, add_special_tokens=False, verbose=False)["input_ids"])

    def _span_tokens(self, first: int, stop: int) -> int:
        """Tokens of pieces [first, stop) joined, as a chunk would hold them."""
        return self._count(self.doc.text[self.pieces[first].start : self.pieces[stop - 1].end].strip())

    def _unit_pieces(self, unit: int, start: int, end: int) -> list[_Piece]:
        n_tokens = self._count(self.doc.text[start:end].strip())
        if n_tokens <= self.chunk_tokens:
            return [_Piece(start, end, n_tokens, unit, cut=False)]
        return self._token_pieces(unit, start, end)

    def _token_pieces(self, unit: int, start: int, end: int) -> list[_Piece]:
        """One piece per token of the unit, cut where each token begins."""
        encoding = self.tokenizer(
            self.doc.text[start:end], add_special_tokens=False, return_offsets_mapping=True, verbose=False
        )
        # Token starts, not ends: tokens that share a split character share its start,
        # so every cut falls between whole characters.
        bounds = [start, *(start + token_start for token_start, _ in encoding["offset_mapping"][1:]), end]
        return [_Piece(a, b, 1, unit, cut=True) for a, b in pairwise(bounds)]

    def _overlap_start(self, first: int, stop: int) -> int:
        """Where the next chunk begins: the trailing pieces of [first, stop) that fit the overlap."""
        start, budget = stop, self.overlap_tokens
        # Never the whole previous chunk: the next one would merely extend it.
        while start - 1 > first and self.pieces[start - 1].n_tokens <= budget:
            start -= 1
            budget -= self.pieces[start].n_tokens
        while start < stop and self._span_tokens(start, stop) > self.overlap_tokens:
            start += 1
        return start

    def _pack(self, first: int, stop: int) -> tuple[int, int]:
        """Pieces [first, end) of the next chunk: greedy, at least one piece past `stop`."""
        end = stop + 1
        total = sum(piece.n_tokens for piece in self.pieces[first:end])
        while end < len(self.pieces) and total + self.pieces[end].n_tokens <= self.chunk_tokens:
            # A cut unit shares its chunks with no other unit (overlap aside): a chunk
            # of whole units plus a few stray tokens of a cut one helps nobody.
            before, after = self.pieces[end - 1], self.pieces[end]
            if before.unit != after.unit and (before.cut or after.cut):
                break
            total += self.pieces[end].n_tokens
            end += 1
        # The joined count rules: drop new pieces while more than one is new, then give up
        # overlap. One piece alone always fits (whole units were counted as they stand).
        while self._span_tokens(first, end) > self.chunk_tokens:
            if end - 1 > stop:
                end -= 1
            else:
                assert first < stop, "a single piece always fits in a chunk"
                first += 1
        return first, end

    def _chunk(self, first: int, stop: int, index: int) -> Chunk:
        """The chunk of pieces [first, stop), without surrounding whitespace."""
        span = self.doc.text[self.pieces[first].start : self.pieces[stop - 1].end]
        text = span.strip()
        leading = len(span) - len(span.lstrip())
        return Chunk(self.doc.name, index, text, self._count(text), self.pieces[first].start + leading)


def _units(doc: DocumentText) -> list[tuple[int, int]]:
    """Spans that tile the document's text, each ending at a natural boundary."""
    if PurePath(doc.name).suffix.lower() in CODE_EXTENSIONS:
        cuts = _definition_cuts(doc.text)
    else:
        cuts = [match.end() for match in PARAGRAPH_BREAK.finditer(doc.text)]
    bounds = [0, *(cut for cut in cuts if 0 < cut < len(doc.text)), len(doc.text)]
    return [(a, b) for a, b in pairwise(bounds) if a < b]


def _definition_cuts(text: str) -> list[int]:
    """Offsets of lines opening a top-level definition, moved up over its leading lines."""
    lines = text.splitlines(keepends=True)
    line_starts = [0]
    for line in lines:
        line_starts.append(line_starts[-1] + len(line))
    cuts = set()
    for i, line in enumerate(lines):
        if DEFINITION_LINE.match(line):
            top = i
            while top > 0 and LEADING_LINE.match(lines[top - 1]):
                top -= 1
            cuts.add(line_starts[top])
    return sorted(cuts)
