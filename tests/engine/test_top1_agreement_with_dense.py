"""Next-token top-1 agreement of the sparse modes with dense attention on real text, reported."""

import pytest

from engine.attention import AttentionConfig
from engine.model.generate import top1_agreement, top1_predictions

pytestmark = pytest.mark.model


def test_sparse_modes_mostly_agree_with_dense(smollm2, gpl_text):
    ids = smollm2.tokenizer(gpl_text)["input_ids"][:3000]
    dense = top1_predictions(smollm2, ids, AttentionConfig(mode="dense"))
    budget = dict(window=256, topk=256, global_blocks=2)
    agreement = {
        mode: top1_agreement(smollm2, ids, AttentionConfig(mode=mode, **budget), dense)
        for mode in ("sliding_window", "naive_sparse", "index_share")
    }
    print("\ntop-1 agreement with dense over 3,000 tokens of GPL-3.0 text:", agreement)
    assert top1_agreement(smollm2, ids, AttentionConfig(mode="dense"), dense) == 1.0
    # The first window's worth of positions see everything in every mode, so
    # agreement is high by construction; the floor still catches a broken selection.
    for mode, share in agreement.items():
        assert 0.8 <= share < 1.0, mode
