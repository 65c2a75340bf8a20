"""Property test: no ledger figure a page shows, for any settings a run may choose and any lengths, is negative (the
sample's run page once showed a cached Index Share question's indexer at -4.32 GFLOP)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import ledger
from engine.attention import AttentionConfig
from engine.core.attention_config import INDEXERS, MODES

CONFIGS = st.builds(
    AttentionConfig, mode=st.sampled_from(MODES), indexer=st.sampled_from(INDEXERS),
    window=st.sampled_from([64, 256, 1024]), topk=st.sampled_from([0, 64, 256, 2048]),
    global_blocks=st.integers(0, 4), group_size=st.integers(1, 8), answer_topk=st.sampled_from([0, 256, 2048]),
    decode_reselect=st.integers(0, 8),
)


@settings(max_examples=300, deadline=None)
@given(CONFIGS, st.integers(1, 40_000), st.integers(1, 300), st.integers(0, 24))
def test_no_cost_is_negative(cfg, prefix_tokens, suffix_tokens, decode_forwards):
    shape = ledger.SMOLLM2_135M
    for costs in (ledger.prefill_costs(shape, cfg, prefix_tokens, answer_tail=False),
                  ledger.call_costs(shape, cfg, prefix_tokens + suffix_tokens, decode_forwards),
                  ledger.continuation_costs(shape, cfg, prefix_tokens, suffix_tokens, decode_forwards)):
        assert all(v >= 0 for v in (*costs.flops.values(), *costs.bytes.values())), (cfg, costs)
