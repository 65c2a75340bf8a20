"""engine.evaluation.group_sweep: every probe asked at every group size, interleaved; each size's accuracy with its
interval and gate, its FLOPs (fewer indexer FLOPs as groups grow) and seconds; the cheapest size inside the gate; and
each size above 1 asked again with calibrated anchor layers, calibrated as a comparison run's default calibrates them:
on the workload's documents, or on the model's calibration text where they are too short."""

from pathlib import Path

import pytest

from engine.evaluation import calibration, group_sweep
from engine.strategies import prompts
from engine.attention import AttentionConfig
from engine.core.documents import DocumentText

from .conftest import MEMO_PROBES

pytestmark = pytest.mark.model

LONG_MEMO = [DocumentText("memo.txt", "The monthly service fee is $4,500.\n\nDeliveries arrive on Tuesdays.\n\n" * 40)]
SMALL = AttentionConfig(window=64, topk=64, global_blocks=1, indexer="exact")  # far below the ~600-token memo
APACHE = Path(__file__).resolve().parents[2] / "samples" / "contracts" / "apache-2.0.txt"


def test_every_probe_is_asked_at_every_size_and_the_cheapest_inside_the_gate_is_recommended(smollm2):
    probes = MEMO_PROBES[:2]
    report = group_sweep.sweep(smollm2, LONG_MEMO, probes, SMALL, group_sizes=(1, 4), gate_points=5.0,
                               calibrate=False)

    assert report["order"] == ["G=1", "G=4", "G=4", "G=1"]  # probe i starts with size i mod 2
    assert report["calibration"] == "not asked for"
    one, four = report["points"]
    assert (one["group_size"], four["group_size"]) == (1, 4)
    for point in (one, four):
        assert len(point["correct"]) == 2 and point["quality"]["n_probes"] == 2
        low, high = point["quality"]["ci95"]
        assert low <= point["quality"]["accuracy"] <= high
        assert point["seconds"] > 0 and point["rate"]["low"] <= point["rate"]["median"] <= point["rate"]["high"]
        assert point["quality"]["gate"] in ("within", "gated", "cannot_tell")
    # Sharing the indexer across 4 layers runs it less.
    assert 0 < four["flops_indexer"] < one["flops_indexer"]
    inside = [p for p in report["points"] if p["quality"]["gate"] == "within"]
    assert report["recommended"] in [p["name"] for p in inside]


def test_calibrated_groups_are_asked_beside_uniform_ones_and_run_the_indexer_as_often(smollm2):
    # About 2,600 tokens: enough to calibrate on.
    documents = [DocumentText("apache-2.0.txt", APACHE.read_text()[:12_000])]
    report = group_sweep.sweep(smollm2, documents, MEMO_PROBES[:1], SMALL, group_sizes=(1, 4))

    by_name = {p["name"]: p for p in report["points"]}
    uniform = by_name["G=4"]
    assert uniform["anchors"] == list(range(SMALL.dense_layers, smollm2.n_layers, 4))
    # Calibrated on the documents, as a run would: SmolLM2's anchors move there under these settings (measured; the
    # calibration is deterministic), so a calibrated arm is asked; at a group size of 1 there is nothing to move.
    config = SMALL.replace(mode="index_share", group_size=4)
    stored = calibration.stored(smollm2.name, config, calibration._text_key(
        prompts.documents_prompt(smollm2, documents)[:calibration.WORKLOAD_TOKENS]))
    assert stored is not None and list(stored.anchors) != uniform["anchors"]
    assert set(by_name) == {"G=1", "G=4", "G=4 calibrated"}
    tuned = by_name["G=4 calibrated"]
    assert tuned["calibrated"] and tuned["anchors"] == list(stored.anchors)
    assert report["calibration"] == ("calibrated anchor layers asked at group size 4, calibrated on the workload's "
                                     "documents")
    # Calibration moves where each group starts, not how many there are: as many indexer layers (their FLOPs differ
    # only as the answers' lengths do).
    assert len(tuned["anchors"]) == len(uniform["anchors"]) and tuned["flops_indexer"] > 0
    assert report["order"] == ["G=1", "G=4", "G=4 calibrated"]


def test_documents_too_short_to_calibrate_on_are_calibrated_on_the_models_text(smollm2):
    report = group_sweep.sweep(smollm2, LONG_MEMO, MEMO_PROBES[:1], SMALL, group_sizes=(4,))

    stored = calibration.stored(smollm2.name, SMALL.replace(mode="index_share", group_size=4))
    assert [p["anchors"] for p in report["points"] if p["calibrated"]] == [list(stored.anchors)]
    assert report["calibration"].startswith("calibrated anchor layers asked at group size 4, calibrated on the "
                                            "model's calibration text: the workload's documents could not calibrate")


def test_a_sweep_without_probes_is_refused(smollm2):
    with pytest.raises(Exception, match="at least one group size and one probe"):
        group_sweep.sweep(smollm2, LONG_MEMO, [], SMALL)
