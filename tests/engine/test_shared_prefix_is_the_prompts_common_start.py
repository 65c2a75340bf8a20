"""The cached prefix is the token ids every prompt starts with, and leaves each prompt a token of its own."""

import pytest

from engine.core.errors import EngineError
from engine.strategies.prefix import shared_prefix_length


def test_it_is_the_longest_common_start_of_all_the_prompts():
    assert shared_prefix_length([[1, 2, 3, 4, 9], [1, 2, 3, 5], [1, 2, 3, 4, 8]]) == 3


def test_a_tokenizer_merge_at_the_boundary_moves_it_back():
    # The documents end in token 7 for one question and merge with the next character (77) for another.
    assert shared_prefix_length([[1, 2, 7, 10, 11], [1, 2, 77, 12]]) == 2


def test_every_prompt_keeps_at_least_one_token_of_its_own():
    assert shared_prefix_length([[1, 2, 3], [1, 2, 3, 4]]) == 2
    assert shared_prefix_length([[1, 2, 3]]) == 2


def test_it_refuses_prompts_too_short_to_continue():
    with pytest.raises(EngineError, match="2 tokens"):
        shared_prefix_length([[1], [1, 2]])
    with pytest.raises(EngineError, match="no prompts"):
        shared_prefix_length([])
