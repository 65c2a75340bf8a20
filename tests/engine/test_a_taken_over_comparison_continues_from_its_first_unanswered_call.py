"""A comparison handed the calls an earlier, interrupted attempt kept (`answered`) makes only the others, and its
report answers as the uninterrupted run's did, billing the kept calls as they were measured (issue 40: a run taken
over at 80% started again from zero)."""

import pytest

from engine.strategies import compare as cmp

from .conftest import MEMO_DOCS, MEMO_PROBES

pytestmark = pytest.mark.model

STRATEGIES = ["chunked", "routed", "full_index_share_cached"]


def _run(lm, answered=None):
    kept = {}
    work = cmp.ComparisonWork(MEMO_DOCS, MEMO_PROBES, strategies=STRATEGIES, chunk_tokens=24, chunk_overlap=4,
                              diagnostics=False)
    report = cmp.compare(lm, work, answered=answered, keep=kept.__setitem__)
    return report, kept


def _questions_calls(keys) -> int:
    return sum(":prefill:" not in key for key in keys)


def test_a_run_resumed_at_80_percent_makes_only_the_unanswered_calls(smollm2):
    whole, every = _run(smollm2)
    assert whole["calls"] == {"made": _questions_calls(every), "reused": 0}
    assert _questions_calls(every) == sum(s["calls"] for s in whole["strategies"].values())

    keys = list(every)  # in the order the calls were made, the cached strategy's prefill first
    answered = {key: every[key] for key in keys[:int(0.8 * len(keys))]}
    resumed, made_now = _run(smollm2, answered)

    assert set(made_now) == set(keys) - set(answered)  # every unanswered call, and no answered one, made again
    assert resumed["calls"] == {"made": _questions_calls(made_now), "reused": _questions_calls(answered)}
    assert resumed["order"] == whole["order"]
    for name in STRATEGIES:
        before, after = whole["strategies"][name], resumed["strategies"][name]
        assert [p["output"] for p in after["probes"]] == [p["output"] for p in before["probes"]]
        assert after["quality"]["accuracy"] == before["quality"]["accuracy"]
        # Tokens and FLOPs are counted, not timed: equal to the call.
        for figure in ("calls", "tokens_in", "tokens_out", "flops"):
            assert after[figure] == before[figure], figure
    # The prefill was kept: the resumed run computes its cache again but bills it as first measured.
    cached = "full_index_share_cached"
    assert resumed["strategies"][cached]["prefill_seconds"] == whole["strategies"][cached]["prefill_seconds"]


def test_a_kept_call_whose_prompt_changed_is_made_again(smollm2):
    _, every = _run(smollm2)
    stale = {key.rsplit(":", 1)[0] + ":0000000000000000": kept for key, kept in every.items()}
    resumed, made_now = _run(smollm2, stale)
    assert resumed["calls"]["reused"] == 0 and set(made_now) == set(every)
