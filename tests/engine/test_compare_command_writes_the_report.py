"""`engine compare --json` writes the report others script against, and prints a table."""

import json

import pytest

from engine.cli import main

pytestmark = pytest.mark.model


def test_it_writes_every_field_the_issue_names(capsys, tmp_path, smollm2):
    (tmp_path / "memo.txt").write_text(
        "Memo to staff.\n\nThe monthly service fee is $4,500.\n\nDeliveries arrive on Tuesdays.\n"
    )
    (tmp_path / "probes.jsonl").write_text(
        '{"question": "What is the monthly service fee?", "answer": "$4,500", "kind": "retrieval"}\n'
    )
    out = tmp_path / "report.json"
    code = main([
        "compare", "--docs", str(tmp_path / "memo.txt"), "--probes", str(tmp_path / "probes.jsonl"),
        "--strategies", "full_index_share,chunked", "--chunk-tokens", "32", "--chunk-overlap", "4",
        "--price-per-hour", "3.6",
        "--json", str(out),
    ])
    printed = capsys.readouterr().out
    assert code == 0
    report = json.loads(out.read_text())
    for name in ("full_index_share", "chunked"):
        s = report["strategies"][name]
        assert {
            "tokens_in", "tokens_out", "calls", "device", "seconds", "seconds_cpu", "wall_seconds", "rate", "flops",
            "peak_memory_bytes", "cost", "quality", "probes",
        } <= s.keys()
        assert {"total", "attention", "indexer", "linear"} <= s["flops"].keys()
        assert s["rate"].keys() == {"median", "min", "max"}
        assert {
            "accuracy", "ci95", "f1", "mcnemar_p", "gate", "probes_to_tell", "n_probes", "by_kind", "gated",
        } <= s["quality"].keys()
        assert s["cost"]["device_dollars"] == pytest.approx(s["seconds"] / 3600 * 3.6)
        assert [set(p) >= {"question", "expected", "output", "correct"} for p in s["probes"]] == [True]
        assert name in printed
    assert report["strategies"]["full_index_share"]["quality"]["top1_agreement"] is not None
    assert {"order", "seconds_basis", "decision"} <= report.keys()
    # The one recommendation, as engine.core.decision words it: a strategy that ran (or none, said so), and its reasons.
    chosen = report["decision"]
    assert chosen.keys() == {"recommended", "sentence", "reasons", "compared_with"}
    assert chosen["recommended"] in (None, "full_index_share", "chunked") and chosen["sentence"]
    if chosen["recommended"]:
        # A probe or two cannot tell strategies apart: then the choice is provisional, and the sentence says so first.
        assert chosen["sentence"].startswith(("Recommended: ", "Too few questions to tell these strategies apart"))
    chunked_calls = report["strategies"]["chunked"]["calls"]
    assert sorted(report["order"]) == sorted(["full_index_share"] + ["chunked"] * chunked_calls)
