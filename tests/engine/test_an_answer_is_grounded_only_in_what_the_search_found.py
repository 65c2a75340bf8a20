"""Routed's grounding check (engine.strategies.routing.grounded): an answer the routing call could have read in the
chunks found keeps the search's answer; one whose figures, or most of whose words, are not there escalates."""

import pytest

from engine.strategies.chunking import Chunk
from engine.strategies.routing import grounded

FOUND = [Chunk("agreement.txt", 0, "The monthly service fee is $4,500. Invoices are payable within thirty days.",
               16, 0),
         Chunk("addendum.txt", 2, "The account manager of Northwind Logistics is Dana Reyes.", 11, 300)]


@pytest.mark.parametrize("answer", [
    "$4,500",  # the text's own span, whatever its punctuation: "4,500" and "4500" normalise alike
    "4500",
    "The monthly service fee is $4,500.",
    "Dana Reyes",
    "The service fee is $4,500 monthly",  # a word of the model's own beside a quoted figure
])
def test_an_answer_read_in_the_chunks_is_grounded(answer):
    assert grounded(answer, FOUND)


@pytest.mark.parametrize("answer", [
    "$4,800",  # a figure the chunks do not hold was made up, or read elsewhere
    "4,500 euros and 12 percent",  # one of its figures is not there
    "Priya Natarajan",  # a name from another document
    "The customer should call the support line tomorrow",  # mostly words the chunks do not hold
    "",
    "  ...  ",  # nothing left to check once normalised
])
def test_an_answer_not_read_in_the_chunks_is_not(answer):
    assert not grounded(answer, FOUND)


def test_nothing_found_grounds_nothing():
    assert not grounded("$4,500", [])
