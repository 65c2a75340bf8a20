"""A small needle grid (two depths, one length) on the default model through the command: the grid's default
index_share setting, the runs' default (pooled_mass, a quarter of the context, groups calibrated on the prompt's own
text), finds each fact dense finds; and asked without the answer started for it, as a business's questions are, it
still reads the fact from the question's own block.
"""

import json

import pytest

from engine.evaluation import needle
from engine.cli import main
from engine.model.generate import generate
from engine.core.catalogue import QWEN_05B

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    folder = tmp_path_factory.mktemp("needle")
    out, png = folder / "grid.json", folder / "grid.png"
    code = main(["needle", "--model", QWEN_05B.key, "--lengths", "2048", "--depths", "0.1,0.3", "--facts", "1",
                 "--json", str(out), "--png", str(png)])
    assert code == 0
    report = json.loads(out.read_text())
    dense = {r["depth"]: r for r in report["rows"] if r["setting"] == "dense"}
    shared = {r["depth"]: r for r in report["rows"] if r["setting"].startswith("index_share")}
    return report, png, dense, shared


def test_the_grid_asks_dense_and_index_share_the_same_facts_within_a_quarter_of_the_context(grid):
    report, png, dense, shared = grid
    assert report["model"] == QWEN_05B.display_name
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(dense) == set(shared) == {0.1, 0.3}
    assert {r["setting"] for r in shared.values()} == {"index_share:pooled_mass+doc@0.25"}
    assert all(len(r["anchor_layers"]) == 6 for r in shared.values())  # Qwen's 22 sparse layers in groups of 4
    for depth in dense:
        assert dense[depth]["correct"], f"dense misses the fact at depth {depth}: {dense[depth]['text']!r}"
        assert shared[depth]["prompt_tokens"] == dense[depth]["prompt_tokens"]
        assert shared[depth]["budget_tokens"] <= shared[depth]["prompt_tokens"] / 4
        assert 0 <= shared[depth]["recall"] <= 1
        assert shared[depth]["flops"] < dense[depth]["flops"]


def test_the_default_index_share_setting_finds_both_facts_where_dense_does(grid):
    _, _, dense, shared = grid
    for depth in dense:
        assert shared[depth]["correct"], f"index_share misses at depth {depth}: {shared[depth]['text']!r}"


def test_asked_without_the_answer_started_index_share_still_finds_the_fact(qwen):
    # Before its last query block was scored query by query, pooled_mass answered "1234" here and dense "3963":
    # the block's mean over the question and the chat template's closing tokens missed the fact's block.
    haystack = "\n\n".join(d.text.strip() for d in needle.default_documents())
    fact = needle.facts(1)[0]
    ids, _ = needle.planted_prompt(qwen, haystack, fact, 2048, 0.1)
    ids = ids[: -len(qwen.tokenizer(fact.answer_start, add_special_tokens=False)["input_ids"])]
    assert len(ids) % 64 not in (0, 1)  # the last query block holds more than the last query alone
    setting = needle.Setting("index_share", "pooled_mass", 0.25)
    for cfg in (setting.base.replace(mode="dense"), setting.config(len(ids))):
        text = generate(qwen, ids, cfg, 6).text
        assert fact.answered_by(text), f"{cfg.mode} answered {text!r}"
