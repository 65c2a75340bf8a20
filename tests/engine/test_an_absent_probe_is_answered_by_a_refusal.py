"""An absent probe asks what the documents do not say (issue 39): its expected answer is a refusal, and the scorer
takes any of the model's ways of refusing (engine.core.abstention), and nothing else."""

import pytest

from engine.core.probes import is_correct
from engine.core.stats import by_kind, wilson


@pytest.mark.parametrize("output", ["not stated", "NONE", "The text does not say.", "None.", "Not mentioned"])
@pytest.mark.parametrize("expected", ["not stated", "NONE"])
def test_a_refusal_answers_an_absent_probe(output, expected):
    assert is_correct(output, expected)


@pytest.mark.parametrize("output", ["90 days", "None of the fees apply: 40 euros", "", "It is stated as 12 euros"])
def test_an_answer_does_not(output):
    assert not is_correct(output, "not stated")


def test_a_probe_with_an_answer_is_not_answered_by_a_refusal():
    assert not is_correct("not stated", "90 days") and is_correct("It is 90 days.", "90 days")


def test_accuracy_by_kind_counts_the_questions_and_gives_their_interval():
    answers = [{"kind": "retrieval", "correct": True}] * 3 + [{"kind": "absent", "correct": False},
                                                             {"kind": "absent", "correct": True}]
    assert by_kind(answers) == {
        "absent": {"correct": 1, "n": 2, "accuracy": 0.5, "ci95": list(wilson(1, 2))},
        "retrieval": {"correct": 3, "n": 3, "accuracy": 1.0, "ci95": list(wilson(3, 3))},
    }
