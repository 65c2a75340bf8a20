"""`engine compare --json` carries retrieval's recall and seconds, and routed's escalations, with the settings."""

import json

import pytest

from engine.cli import main

pytestmark = pytest.mark.model


def test_the_json_carries_recall_and_escalations(capsys, tmp_path, smollm2):
    (tmp_path / "memo.txt").write_text("Memo to staff.\n\nThe monthly service fee is $4,500.\n\n"
                                       "Deliveries arrive on Tuesdays.\n")
    (tmp_path / "probes.jsonl").write_text(
        '{"question": "What is the monthly service fee?", "answer": "$4,500", "source": "memo.txt"}\n')
    out = tmp_path / "report.json"
    code = main(["compare", "--docs", str(tmp_path / "memo.txt"), "--probes", str(tmp_path / "probes.jsonl"),
                 "--strategies", "retrieval,routed", "--chunk-tokens", "16", "--chunk-overlap", "0",
                 "--retrieval-chunks", "1", "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    report = json.loads(out.read_text())
    retrieval, routed = report["strategies"]["retrieval"], report["strategies"]["routed"]
    assert retrieval["retrieval_recall"] == 1.0 and retrieval["retrieval_seconds"] > 0
    assert [len(a["retrieved"]) for a in retrieval["probes"]] == [1]
    assert isinstance(routed["escalated"], int) and routed["calls"] == 1 + routed["escalated"]
    assert report["settings"]["retrieval_chunks"] == 1 and report["settings"]["retrieval_tokens"] == 1536
    assert "source retrieved 100%" in printed and "escalated" in printed
