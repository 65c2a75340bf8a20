"""Chunks fit the token budget, follow natural boundaries, overlap a bounded amount
and together cover the whole document."""

from itertools import pairwise
from pathlib import Path

import pytest

from engine.strategies.chunking import Chunk, split_document, split_documents
from engine.core.documents import DocumentText, read_documents
from engine.core.errors import EngineError
from engine.model.loader import load_tokenizer

WORKLOAD = Path(__file__).resolve().parents[2] / "samples" / "workload"

PARAGRAPHS = [f"Paragraph {i} says that delivery {i} reached store {i * 7} on time." for i in range(40)]

CODE = '''import json


def load(path):
    with open(path) as handle:

        return json.load(handle)


@cache
def total(items):
    return sum(item["price"] for item in items)


class Invoice:
    def __init__(self, items):
        self.items = items

    def amount(self):
        return total(self.items)


# Entry point for the command line.
def main():
    print(Invoice(load("invoice.json")).amount())
'''


@pytest.fixture(scope="module")
def tokenizer():
    return load_tokenizer()


def _count(tokenizer, text):
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def _overlaps(doc, chunks):
    """The text each chunk repeats from the one before it."""
    return [doc.text[chunk.start : previous.end].strip() for previous, chunk in pairwise(chunks)]


def _without_overlap(chunks):
    """Chunk texts joined, each without the part the previous chunk already held."""
    end = 0
    parts = []
    for chunk in chunks:
        parts.append(chunk.text[max(0, end - chunk.start) :])
        end = chunk.end
    return "".join(parts)


def _squeeze(text):
    return "".join(text.split())


def test_every_chunk_fits_the_budget_and_is_a_slice_of_its_document(tokenizer, gpl_text):
    doc = DocumentText("gpl-3.0.txt", gpl_text)
    chunks = split_document(doc, tokenizer, chunk_tokens=128, overlap_tokens=32)
    assert len(chunks) > 10
    for index, chunk in enumerate(chunks):
        assert chunk.index == index and chunk.document == "gpl-3.0.txt"
        assert chunk.n_tokens == _count(tokenizer, chunk.text) <= 128
        assert doc.text[chunk.start : chunk.end] == chunk.text


@pytest.mark.parametrize("chunk_tokens,overlap_tokens", [(16, 0), (16, 15), (64, 16), (512, 128), (8192, 0)])
def test_nothing_is_dropped(tokenizer, gpl_text, chunk_tokens, overlap_tokens):
    doc = DocumentText("gpl-3.0.txt", gpl_text)
    chunks = split_document(doc, tokenizer, chunk_tokens, overlap_tokens)
    assert _squeeze(_without_overlap(chunks)) == _squeeze(doc.text)


def test_chunks_keep_whole_paragraphs_when_they_fit(tokenizer):
    doc = DocumentText("notes.txt", "\n\n".join(PARAGRAPHS) + "\n")
    chunks = split_document(doc, tokenizer, chunk_tokens=80, overlap_tokens=0)
    assert len(chunks) > 3
    for chunk in chunks:
        assert all(paragraph in PARAGRAPHS for paragraph in chunk.text.split("\n\n"))
    assert [p for chunk in chunks for p in chunk.text.split("\n\n")] == PARAGRAPHS


def test_each_chunk_repeats_whole_trailing_paragraphs_within_the_overlap(tokenizer):
    doc = DocumentText("notes.txt", "\n\n".join(PARAGRAPHS))
    chunks = split_document(doc, tokenizer, chunk_tokens=80, overlap_tokens=40)
    overlaps = _overlaps(doc, chunks)
    assert overlaps and all(overlaps)
    for overlap, previous in zip(overlaps, chunks[:-1], strict=True):
        assert _count(tokenizer, overlap) <= 40
        assert previous.text.endswith(overlap)
        assert all(paragraph in PARAGRAPHS for paragraph in overlap.split("\n\n"))


def test_a_zero_overlap_repeats_nothing(tokenizer):
    doc = DocumentText("notes.txt", "\n\n".join(PARAGRAPHS))
    chunks = split_document(doc, tokenizer, chunk_tokens=80, overlap_tokens=0)
    assert all(chunk.start >= previous.end for previous, chunk in pairwise(chunks))


def test_code_is_split_before_top_level_definitions(tokenizer):
    doc = DocumentText("invoice.py", CODE)
    chunks = split_document(doc, tokenizer, chunk_tokens=40, overlap_tokens=0)
    # The decorator and the comment travel with the definition below them.
    assert [chunk.text.splitlines()[0] for chunk in chunks] == [
        "import json",
        "@cache",
        "class Invoice:",
        "# Entry point for the command line.",
    ]


def test_blank_lines_split_prose_but_not_code(tokenizer):
    body = "def load(path):\n    with open(path) as handle:\n\n        return json.load(handle)"
    as_code = split_document(DocumentText("invoice.py", CODE), tokenizer, chunk_tokens=24, overlap_tokens=0)
    as_prose = split_document(DocumentText("invoice.txt", CODE), tokenizer, chunk_tokens=24, overlap_tokens=0)
    assert body in [chunk.text for chunk in as_code]
    assert "return json.load(handle)" in [chunk.text.splitlines()[0] for chunk in as_prose]


def test_a_paragraph_longer_than_a_chunk_is_cut_by_tokens_with_token_overlap(tokenizer):
    paragraph = " ".join(f"Pallet {i} moved to bay {i % 9}, aisle {i % 4}, shelf {i % 3}." for i in range(40))
    doc = DocumentText("log.txt", f"Short opening line.\n\n{paragraph}\n\nShort closing line.")
    chunks = split_document(doc, tokenizer, chunk_tokens=64, overlap_tokens=10)
    assert len(chunks) >= _count(tokenizer, paragraph) // 64
    assert all(chunk.n_tokens <= 64 for chunk in chunks)
    overlaps = _overlaps(doc, chunks)
    # Inside the cut paragraph the overlap is trailing tokens, never a whole chunk.
    assert all(0 < _count(tokenizer, overlap) <= 10 for overlap in overlaps[1:-1])
    assert _squeeze(_without_overlap(chunks)) == _squeeze(doc.text)


def test_cuts_never_split_a_character(tokenizer):
    # Byte-level BPE spreads each of these characters over several tokens.
    doc = DocumentText("menu.txt", "日本語のパン屋🥐さん" * 60)
    chunks = split_document(doc, tokenizer, chunk_tokens=16, overlap_tokens=5)
    assert len(chunks) > 10
    for chunk in chunks:
        assert "\ufffd" not in chunk.text
        assert doc.text[chunk.start : chunk.end] == chunk.text
        assert chunk.n_tokens <= 16
    assert _without_overlap(chunks) == doc.text


def test_it_splits_documents_in_order_and_numbers_chunks_per_document(tokenizer):
    docs = read_documents(sorted(WORKLOAD.glob("*.txt")))
    chunks = split_documents(docs, tokenizer, chunk_tokens=128, overlap_tokens=16)
    assert [c.document for c in chunks] == sorted((c.document for c in chunks), key=[d.name for d in docs].index)
    for doc in docs:
        own = [c for c in chunks if c.document == doc.name]
        assert [c.index for c in own] == list(range(len(own))) and len(own) > 2
        assert own == split_document(doc, tokenizer, chunk_tokens=128, overlap_tokens=16)


@pytest.mark.parametrize(
    "chunk_tokens,overlap_tokens,message",
    [
        (15, 0, "chunk size must be at least 16 tokens, got 15"),
        (64, 64, r"overlap must be at least 0 and smaller than the chunk size \(64 tokens\), got 64"),
        (64, -1, "overlap must be at least 0"),
    ],
)
def test_it_rejects_bad_sizes(tokenizer, chunk_tokens, overlap_tokens, message):
    with pytest.raises(EngineError, match=message):
        split_document(DocumentText("a.txt", "Some text."), tokenizer, chunk_tokens, overlap_tokens)


def test_a_chunk_knows_where_it_ends():
    assert Chunk("a.txt", 0, "four", 1, start=10).end == 14
