"""A calibration on real text chooses anchor layers deterministically and keeps them in the model cache;
runs use the stored layers."""

import json

import pytest

from engine.evaluation import calibration
from engine.attention import AttentionConfig
from engine.model.generate import generate

pytestmark = pytest.mark.model

CFG = AttentionConfig(mode="index_share", indexer="mass", block_size=16, window=64, topk=64, global_blocks=1)


@pytest.fixture(scope="module")
def text_ids(smollm2, gpl_text):
    return smollm2.tokenizer(gpl_text)["input_ids"][:640]


def test_it_is_deterministic_for_a_given_text(smollm2, text_ids):
    first = calibration.calibrate(smollm2, CFG, text_ids, store=False)
    second = calibration.calibrate(smollm2, CFG, text_ids, store=False)
    assert first.anchors == second.anchors and first.coverage == second.coverage
    assert first.anchors[0] == CFG.dense_layers  # the first sparse layer has no earlier selection to reuse
    assert len(first.anchors) == -(-28 // CFG.group_size)  # as many indexer passes as uniform groups of 4
    assert first.calibrated_coverage >= first.uniform_coverage


def test_runs_use_the_stored_layers_and_call_the_indexer_only_there(smollm2, text_ids, tmp_path, monkeypatch):
    monkeypatch.setenv("ENGINE_CACHE_DIR", str(tmp_path))
    chosen = calibration.calibrated(smollm2, CFG, text_ids)
    path = calibration.calibration_file(smollm2.name, CFG)
    assert path.is_file() and tuple(json.loads(path.read_text())["anchors"]) == chosen.anchor_layers
    # Whatever the file says is what runs: edit it, and the next run's indexer passes follow.
    edited = (2, 3, 11, 12, 25)
    path.write_text(json.dumps({**json.loads(path.read_text()), "anchors": list(edited)}))
    cfg = calibration.calibrated(smollm2, CFG, text_ids[:1])  # a stored calibration is not recomputed
    assert cfg.anchor_layers == edited
    result = generate(smollm2, text_ids[:300], cfg.replace(decode_reselect=1), max_new_tokens=2)
    assert result.indexer_passes_by_layer == {layer: 2 for layer in edited}
