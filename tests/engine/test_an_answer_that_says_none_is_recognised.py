"""Recognising NONE: the wordings a model uses for "the text does not say", and answers that only look like it."""

import pytest

from engine.core.abstention import says_none


@pytest.mark.parametrize("answer", [
    "NONE", "None.", "none", " none\n", '"NONE"', "**None**", "- NONE", "NONE. The text does not mention a fee.",
    "None given", "The text does not say.", "The text doesn't mention the fee.", "This passage does not specify it.",
    "The documents do not contain that information.", "Not stated", "not mentioned in the text",
    "Not in the text.", "I don't know.", "I do not know", "I can’t tell from this text.", "No information.",
    "There is no mention of a fee.", "no answer", "It cannot be determined from the text.",
    "Cannot be determined from the text", "The answer is not given.", "Unknown.", "N/A", "The text is silent.",
    "The answer is NONE.", "The answer is: NONE", "Answer: none", "I'm not sure.",
])
def test_it_recognises_the_ways_a_model_says_none(answer):
    assert says_none(answer)


@pytest.mark.parametrize("answer", [
    # "none of ..." is a claim about the documents, which a question may rightly get: an answer (see the module).
    "None of the fees apply: 40 euros",
    "Nonexistent", "Nonetheless, the fee is $4,500.", "$4,500", "45 days", "There is no fee for returns.",
    "No later than 45 days", "Not later than 45 days after notice", "The fee is $4,500 (the text does not say more).",
    "Unknown Pleasures", "The text says 45 days.", "The answer is 45.", "Nothing but the invoice number HL-20931", "",
    "The answer is 45 days.", "The answer is none of the above fees", "I'm not surprised: $4,500",
])
def test_it_takes_near_misses_for_answers(answer):
    assert not says_none(answer)
