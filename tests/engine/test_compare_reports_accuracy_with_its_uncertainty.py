"""Each strategy's accuracy comes with its Wilson interval, token F1, and the three-way gate against the
most accurate strategy on the same probes (engine.core.stats)."""

import statistics

import pytest

from engine.strategies import compare as cmp
from engine.core import stats
from engine.attention import AttentionConfig
from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion, token_f1

pytestmark = pytest.mark.model

DOCS = [DocumentText("memo.txt", (
    "The monthly service fee is $4,500.\n\nDeliveries arrive on Tuesdays.\n\n"
    "The account manager is Dana Reyes.\n\nThe storage room is on the second floor.\n"
))]
PROBES = [
    ProbeQuestion("What is the monthly service fee?", "$4,500", "retrieval"),
    ProbeQuestion("When do deliveries arrive?", "Tuesdays", "retrieval"),
    ProbeQuestion("Who is the account manager?", "Dana Reyes", "retrieval"),
    ProbeQuestion("Where is the storage room?", "second floor", "retrieval"),
]


def test_the_interval_f1_and_gate_agree_with_engine_stats(smollm2):
    strategies = ["full_dense", "full_sliding_window"]
    work = cmp.ComparisonWork(DOCS, PROBES, strategies=strategies, gate_points=5.0, diagnostics=False,
                        attention=AttentionConfig(window=64, block_size=16, topk=0, global_blocks=0))
    report = cmp.compare(smollm2, work)
    correct = {name: [a["correct"] for a in report["strategies"][name]["probes"]] for name in strategies}
    expected_gates = stats.gates(correct, 5.0)
    best = max(strategies, key=lambda name: sum(correct[name]))
    for name in strategies:
        s, gate = report["strategies"][name], expected_gates[name]
        q = s["quality"]
        assert q["ci95"] == list(stats.wilson(sum(correct[name]), len(PROBES)))
        assert [a["f1"] for a in s["probes"]] == [token_f1(a["output"], a["expected"]) for a in s["probes"]]
        assert q["f1"] == pytest.approx(statistics.fmean(a["f1"] for a in s["probes"]))
        assert (q["gate"], q["mcnemar_p"], q["probes_to_tell"]) == (gate.call, gate.p_value, gate.probes_to_tell)
        assert q["gated"] == (q["gate"] == "gated")
        if name != best:
            assert q["mcnemar_p"] == stats.mcnemar_exact(*stats.discordant(correct[best], correct[name]))
    assert report["strategies"][best]["quality"]["gate"] == "within"
    assert report["strategies"][best]["quality"]["mcnemar_p"] is None


def test_one_strategy_alone_has_no_gate(smollm2):
    work = cmp.ComparisonWork(DOCS, PROBES[:1], strategies=["full_dense"], diagnostics=False)
    q = cmp.compare(smollm2, work)["strategies"]["full_dense"]["quality"]
    assert (q["gate"], q["gated"], q["mcnemar_p"], q["probes_to_tell"]) == ("none", False, None, None)
