"""A refused strategy answered nothing: it takes no part in the quality gate."""

from engine.strategies import compare as cmp


def ran(name: str, correct: list[bool]) -> cmp.StrategyTally:
    return cmp.StrategyTally(name, "dense", answers=[{"correct": c} for c in correct])


def test_a_strategy_left_alone_by_refusals_has_no_gate():
    results = {
        "full_dense": cmp.StrategyTally("full_dense", "dense", refused="too long"),
        "chunked": ran("chunked", [False, False, True]),
    }
    gates = cmp._gates(results, 5.0)
    assert list(gates) == ["chunked"]
    assert gates["chunked"].call == "none"


def test_the_strategies_that_ran_are_gated_against_the_best_of_them():
    results = {
        "full_index_share": cmp.StrategyTally("full_index_share", "index_share", refused="too long"),
        "full_dense": ran("full_dense", [True] * 12),
        "chunked": ran("chunked", [False] * 12),
    }
    gates = cmp._gates(results, 5.0)
    assert (gates["full_dense"].call, gates["chunked"].call) == ("within", "gated")
    assert "full_index_share" not in gates
