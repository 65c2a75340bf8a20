"""The BM25 search ranks the chunks for a question and gives it a set count of them, or as many as fit a token
budget (one at least), in document order."""

import pytest

from engine.core.call_plan import retrieved
from engine.strategies.chunking import Chunk
from engine.strategies.retrieval import Index

TEXTS = [
    "Deliveries arrive at the storage room on Tuesdays.",
    "The monthly service fee is $4,500, invoiced on the first day.",
    "Truck NW-118 lost cooling on the bakery route.",
    "The fuel surcharge is 3.5 percent of the service fee.",
]
CHUNKS = [Chunk("doc.txt", i, text, n_tokens=100, start=0) for i, text in enumerate(TEXTS)]


def test_it_ranks_the_chunk_that_shares_the_questions_words_first():
    index = Index(CHUNKS)
    assert index.ranked("Which truck lost cooling on the route?")[0] == 2
    assert index.ranked("What is the monthly service fee?")[:2] == [1, 3]


def test_it_gives_a_set_count_of_chunks_in_document_order():
    found = Index(CHUNKS).search("What percent is the fuel surcharge on the service fee?", count=2, budget=0)
    assert [c.index for c in found.chunks] == [1, 3]
    assert found.cpu_seconds >= 0


def test_by_default_it_fills_the_token_budget_and_gives_one_chunk_at_least():
    index = Index(CHUNKS)
    assert len(index.search("service fee", count=0, budget=250).chunks) == 2
    assert len(index.search("service fee", count=0, budget=10).chunks) == 1
    assert retrieved([300, 100, 100], count=0, budget=250) == 1  # stops at the first that does not fit
    assert retrieved([100, 100], count=5, budget=0) == 2


def test_a_question_of_unknown_words_keeps_document_order():
    assert Index(CHUNKS).ranked("zebra quokka") == [0, 1, 2, 3]


def test_it_refuses_to_index_nothing():
    with pytest.raises(ValueError, match="no chunks"):
        Index([])


JOIN = [
    "Ilvesta Tiles is billed under tariff T-17.",
    "The monthly fee under tariff T-42 is 1865 euros.",
    "The monthly fee under tariff T-08 is 2440 euros.",
    "Deliveries arrive at the storage room on Tuesdays.",
    "The monthly fee under tariff T-17 is 5075 euros.",
]
JOIN_CHUNKS = [Chunk("doc.txt", i, text, n_tokens=100, start=0) for i, text in enumerate(JOIN)]


def test_a_question_that_names_its_subject_is_searched_with_the_subjects_sentences():
    """The question's words find the subject's half and the look-alike fee lines; the subject's sentence carries the
    bridge (T-17) to the other half."""
    index = Index(JOIN_CHUNKS)
    question = "What monthly fee does Ilvesta Tiles pay?"
    assert 4 not in index.ranked(question)[:3]
    assert index.subject_query(question) == f"{question} Ilvesta Tiles is billed under tariff T-17."
    assert [c.index for c in index.search(question, count=2, budget=0).chunks] == [0, 4]


def test_a_name_the_documents_give_everywhere_adds_nothing():
    chunks = [Chunk("doc.txt", i, f"Northwind runs route {i}. It is on time.", 10, 0) for i in range(5)]
    assert Index(chunks).subject_query("Which route does Northwind run?") == "Which route does Northwind run?"
