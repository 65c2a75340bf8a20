"""A cached full-context strategy prefills the documents once per run, and bills their tokens and FLOPs once."""

import pytest

from engine.strategies import compare as cmp
from engine.strategies import prompts
from engine.core import ledger
from engine.strategies.prefix import shared_prefix_length

from .conftest import MEMO_DOCS, MEMO_PROBES

pytestmark = pytest.mark.model


def test_the_documents_tokens_and_prefill_count_once_per_run(smollm2):
    strategies = ["full_dense", "full_dense_cached", "full_index_share_cached"]
    work = cmp.ComparisonWork(MEMO_DOCS, MEMO_PROBES, strategies=strategies, diagnostics=False)
    report = cmp.compare(smollm2, work)
    whole = [prompts.full_prompt(smollm2, MEMO_DOCS, p.question) for p in MEMO_PROBES]
    length = shared_prefix_length(whole)
    uncached, cached = report["strategies"]["full_dense"], report["strategies"]["full_dense_cached"]

    # The one-off prefills run first, then the questions interleave.
    assert report["order"][:2] == ["full_dense_cached:prefill", "full_index_share_cached:prefill"]
    assert report["order"][2:] == ["full_dense", "full_dense_cached", "full_index_share_cached",
                                   "full_dense_cached", "full_index_share_cached", "full_dense",
                                   "full_index_share_cached", "full_dense", "full_dense_cached"]
    assert uncached["tokens_in"] == sum(map(len, whole))
    for name in strategies[1:]:
        s = report["strategies"][name]
        assert s["calls"] == len(MEMO_PROBES) and s["prefix_tokens"] == length
        assert s["tokens_in"] == length + sum(len(p) - length for p in whole)
        # Total FLOPs less the questions' own: the documents' prefill, exactly once.
        cfg = work.attention.replace(mode=s["mode"])
        once = s["flops"]["total"] - sum(a["flops"] for a in s["probes"])
        # The documents end in no question: their prefill keeps the documents' budget to the end
        # (engine.strategies.prefix).
        assert once == pytest.approx(ledger.prefill_costs(ledger.from_hf_config(smollm2.config, smollm2.name), cfg,
                                                          length, answer_tail=False).total_flops)
        assert s["prefill_seconds"] > 0
        assert s["seconds"] == pytest.approx(s["prefill_seconds"] + sum(a["seconds"] for a in s["probes"]))
        assert s["per_question_seconds"] == pytest.approx(sum(a["seconds"] for a in s["probes"]) / len(MEMO_PROBES))
        assert s["rate"]["min"] <= s["rate"]["median"] <= s["rate"]["max"]
    assert uncached["prefill_seconds"] == 0 and uncached["prefix_tokens"] is None
    # The same verdicts, not the same words: on a CPU without bf16 units (a 2-core Xeon without AVX-512 bf16 or AMX,
    # 2026-12-06) the two-piece prefill's rounding turned one answer's tail from "Deliveries arrive" into "Delivers
    # arrive", after the same "$4,500", at the commit before and after this line alike.
    assert [a["correct"] for a in cached["probes"]] == [a["correct"] for a in uncached["probes"]]
