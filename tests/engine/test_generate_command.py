"""`python -m engine generate` prints a continuation, and with --json what it cost."""

import json

import pytest

from engine.cli import main

pytestmark = pytest.mark.model


def test_it_answers_and_reports_its_measurements(capsys, tmp_path, smollm2):
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("What is the capital of France? Answer in one word.")
    code = main([
        "generate", "--mode", "index_share", "--prompt-file", str(prompt), "--max-new-tokens", "8", "--json",
        "--window", "64", "--topk", "64", "--block-size", "16",
    ])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert "Paris" in report["text"]
    assert report["prompt_tokens"] > 10 and 0 < report["new_tokens"] <= 8
    assert report["prefill"]["seconds"] > 0 and report["prefill"]["device"].startswith("cpu")
    assert {int(layer) for layer in report["indexer_passes_by_layer"]} == {2, 6, 10, 14, 18, 22, 26}
    assert report["indexer_passes"] == sum(report["indexer_passes_by_layer"].values())
    assert report["attention"]["window"] == 64 and report["attention"]["group_size"] == 4


def test_plain_output_is_just_the_continuation(capsys, tmp_path, smollm2):
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Reply with the single word: yes")
    assert main(["generate", "--mode", "dense", "--prompt-file", str(prompt), "--max-new-tokens", "4"]) == 0
    out = capsys.readouterr().out.strip()
    assert out and not out.startswith("{")
