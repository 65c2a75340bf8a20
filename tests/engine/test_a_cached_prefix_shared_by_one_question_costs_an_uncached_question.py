"""engine.core.planned_work: a cached strategy's prefill is one-off work its questions share. With one question to
share it, the prefill and that question's own calls are the uncached call's FLOPs, one row of logits more (the
prefill's last token's, which a single pass never computes) and, with the pooled_mass indexer, the prefill's last block
scored query by query where a single pass pooled it; with more, each question pays less, and never less than its own
calls."""

import pytest

from engine.core import ledger, run_settings
from engine.core.call_plan import QUESTION_TOKENS, call_plan
from engine.core.planned_work import planned_work


@pytest.mark.parametrize("mode", ["dense", "naive_sparse", "index_share"])
def test_one_question_pays_the_whole_prefill_and_no_more(mode):
    cfg = run_settings.attention({})
    documents = [20_000, 12_000]
    uncached = planned_work(ledger.SMOLLM2_135M, cfg, f"full_{mode}", call_plan(f"full_{mode}", documents, []))
    (call,) = call_plan(f"full_{mode}_cached", documents, [])
    cached = planned_work(ledger.SMOLLM2_135M, cfg, f"full_{mode}_cached", [call])

    assert uncached.prefill_flops == 0
    shape = ledger.SMOLLM2_135M
    prefix = call.prompt_tokens - QUESTION_TOKENS
    at = cfg.replace(mode=mode)
    pooled_last_block = (ledger.prefill_costs(shape, at, prefix, answer_tail=False).flops["indexer"]
                         - ledger.prefill_costs(shape, at, prefix, answer_tail=False, last_block_exact=False)
                         .flops["indexer"])
    assert (pooled_last_block > 0) == (mode != "dense")
    assert cached.per_question(1) - uncached.question_flops == pytest.approx(
        2 * shape.d_model * shape.vocab + pooled_last_block)
    assert cached.question_flops < cached.per_question(90) < cached.per_question(9) < uncached.question_flops
