"""The analytic ledger: closed forms, consistency between views, and the published claim."""

import json

import pytest

from engine.core import ledger
from engine.attention import AttentionConfig
from engine.core.attention_config import ANSWER_TAIL_TOKENS
from engine.cli import main

SMOL = ledger.SMOLLM2_135M
GLM = ledger.GLM52_LIKE


def test_dense_prefill_attention_is_the_causal_triangle():
    n = 4096
    costs = ledger.prefill_costs(SMOL, AttentionConfig(mode="dense"), n)
    assert costs.flops["attention"] == 30 * 2 * 9 * (64 + 64) * n * (n + 1) // 2
    assert costs.flops["indexer"] == 0


@pytest.mark.parametrize("mode", ["dense", "sliding_window", "naive_sparse", "index_share"])
def test_prefill_attention_is_the_sum_of_marginal_attention(mode):
    # Every query counts the keys it attends: the documents' budget, and for the last ANSWER_TAIL_TOKENS (where a
    # question sits) the answer's, as a decoded token does.
    cfg = AttentionConfig(mode=mode, window=256, topk=256, answer_topk=1024)
    documents = cfg.replace(answer_topk=0)
    n = 3000
    tail = n - ANSWER_TAIL_TOKENS
    body = sum(ledger.marginal_costs(SMOL, documents, p).flops["attention"] for p in range(1, tail + 1))
    question = sum(ledger.marginal_costs(SMOL, cfg, p).flops["attention"] for p in range(tail + 1, n + 1))
    plain = sum(ledger.marginal_costs(SMOL, documents, p).flops["attention"] for p in range(tail + 1, n + 1))
    assert ledger.prefill_costs(SMOL, cfg, n).flops["attention"] == body + question
    assert ledger.prefill_costs(SMOL, cfg, n, answer_tail=False).flops["attention"] == body + plain
    assert (question > plain) == (mode in ("naive_sparse", "index_share"))


@pytest.mark.parametrize("indexer", ["pooled", "exact"])
def test_index_share_runs_a_quarter_of_the_indexer_passes(indexer):
    naive = ledger.prefill_costs(SMOL, AttentionConfig(mode="naive_sparse", indexer=indexer), 8192)
    shared = ledger.prefill_costs(SMOL, AttentionConfig(mode="index_share", indexer=indexer), 8192)
    assert shared.flops["indexer"] * 28 == naive.flops["indexer"] * 7  # 28 sparse layers, 7 groups
    assert shared.flops["attention"] == naive.flops["attention"]


def test_the_exact_indexer_scores_only_keys_of_earlier_blocks():
    # The window keeps a query's own block, so the kernel scores no key of it: three
    # full blocks of 64 are 0 + 64 + 128 keys per query, 64 queries each.
    cfg = AttentionConfig(mode="index_share", indexer="exact", block_size=64)
    per_pair = 7 * 2 * 9 * 64  # 7 indexer passes (groups), 2*HQ*D each
    assert ledger.prefill_costs(SMOL, cfg, 3 * 64).flops["indexer"] == per_pair * 64 * (0 + 64 + 128)
    n = 3000  # a partial last block; a prefill scores what its tokens' decodes would
    marginal = sum(ledger.marginal_costs(SMOL, cfg, p).flops["indexer"] for p in range(1, n + 1))
    assert ledger.prefill_costs(SMOL, cfg, n).flops["indexer"] == marginal


def test_the_exact_indexer_is_what_makes_sharing_pay():
    def saving(indexer, n):
        cfg = AttentionConfig(indexer=indexer)
        naive = ledger.prefill_costs(SMOL, cfg.replace(mode="naive_sparse"), n).total_flops
        return naive / ledger.prefill_costs(SMOL, cfg, n).total_flops

    assert saving("pooled", 131072) < 1.01
    assert saving("exact", 8192) > 1.2


def test_glm_like_preset_against_the_published_2_9x_claim(capsys):
    ratios = {}
    for n in (131072, 1048576):
        naive = ledger.marginal_costs(GLM, ledger.GLM52_ATTENTION.replace(mode="naive_sparse"), n).total_flops
        ratios[n] = naive / ledger.marginal_costs(GLM, ledger.GLM52_ATTENTION, n).total_flops
    with capsys.disabled():
        print(
            "\nGLM-5.2-like, naive sparse / index share FLOPs per token: "
            f"128K {ratios[131072]:.2f}x, 1M {ratios[1048576]:.2f}x"
        )
    # Sharing among 4 layers can at most remove 3/4 of the indexer: the ratio is below 4.
    assert 1 < ratios[131072] < ratios[1048576] < 4


def test_flops_command_prints_every_mode_as_json(capsys):
    assert main(["flops", "--preset", "glm-5.2-like", "--context", "1048576", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for mode in ("dense", "naive_sparse", "index_share"):
        assert report[mode]["flops_per_token"] > 0 and report[mode]["flops_prefill"] > 0
    assert report["naive_sparse"]["indexer_layers"] == 78 and report["index_share"]["indexer_layers"] == 20
    ratio = report["ratios"]["naive_sparse/index_share"]["flops_per_token"]
    assert ratio == report["naive_sparse"]["flops_per_token"] / report["index_share"]["flops_per_token"]


@pytest.mark.model
def test_the_smollm2_preset_is_the_loaded_models_shape(smollm2):
    assert ledger.from_hf_config(smollm2.config, name="smollm2-135m") == SMOL


def test_it_finds_the_length_from_which_sharing_saves_ten_percent():
    exact = AttentionConfig(indexer="exact")
    n = ledger.index_share_pays_from(SMOL, exact)
    ratio = lambda m: (  # noqa: E731
        ledger.prefill_costs(SMOL, exact.replace(mode="naive_sparse"), m).total_flops
        / ledger.prefill_costs(SMOL, exact, m).total_flops
    )
    assert ratio(n) >= 1 / 0.9 > ratio(n - 1)
    assert ledger.index_share_pays_from(SMOL, AttentionConfig(indexer="pooled")) is None
