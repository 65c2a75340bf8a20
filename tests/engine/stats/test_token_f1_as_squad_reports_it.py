import pytest

from engine.core.probes import token_f1


@pytest.mark.parametrize(
    ("output", "expected", "f1"),
    [
        ("Dana Reyes", "Dana Reyes", 1.0),
        ("Dana", "Dana Reyes", 2 * 1 * 0.5 / 1.5),  # precision 1, recall 1/2
        ("The manager is Dana Reyes.", "Dana Reyes", 2 * 0.4 * 1 / 1.4),  # 2 of 5 words
        ("4,500 euros", "4500 EUR", 0.5),  # normalised like exact match: "4500" in common
        ("NONE", "Dana Reyes", 0.0),
        ("", "Dana", 0.0),
    ],
)
def test_it_gives_partial_credit_by_shared_words(output, expected, f1):
    assert token_f1(output, expected) == pytest.approx(f1)
