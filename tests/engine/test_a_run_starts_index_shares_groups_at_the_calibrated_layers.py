"""A comparison's Index Share starts its groups where calibration on the workload's documents put them (the runs'
default), where the model's calibration put them, or every group_size-th sparse layer when asked for uniform groups;
documents too short to calibrate on fall back to the model's calibration, and where that cannot run either, the run
goes on with uniform groups; the report says why. Strategies without Index Share calibrate nothing."""

from pathlib import Path

import pytest

from engine.evaluation import calibration
from engine.strategies.compare import ComparisonWork, compare
from engine.core.documents import DocumentText
from engine.core.run_settings import DEFAULTS, attention

from .conftest import MEMO_DOCS, MEMO_PROBES

APACHE = Path(__file__).resolve().parents[2] / "samples" / "contracts" / "apache-2.0.txt"

pytestmark = pytest.mark.model


def _run(smollm2, strategies=("full_index_share",), **changes) -> dict:
    return compare(smollm2, ComparisonWork(MEMO_DOCS, MEMO_PROBES[:1], strategies=strategies, diagnostics=False,
                                     **changes))


def test_by_default_index_share_runs_at_layers_calibrated_on_the_workloads_documents(smollm2):
    assert DEFAULTS["anchors"] == "workload"
    report = compare(smollm2, ComparisonWork([DocumentText("apache-2.0.txt", APACHE.read_text())], MEMO_PROBES[:1],
                                       strategies=("full_index_share",), diagnostics=False))
    assert report["settings"]["anchors"] == "workload"
    # One anchor a group: SmolLM2's 28 sparse layers (30 less the 2 dense) in groups of 4.
    assert len(report["settings"]["attention"]["anchor_layers"]) == 7


def test_documents_too_short_for_calibration_run_at_the_models_calibrated_layers_and_say_why(smollm2):
    report = _run(smollm2)  # the memo: far under the 1,408 tokens calibration needs at these settings
    assert report["settings"]["anchors"].startswith("calibrated: the workload's documents could not calibrate (")
    assert tuple(report["settings"]["attention"]["anchor_layers"]) == calibration.stored(
        smollm2.name, attention({})).anchors


def test_the_models_calibrated_layers_when_asked(smollm2):
    report = _run(smollm2, anchors="calibrated")

    stored = calibration.stored(smollm2.name, attention({}))
    assert stored is not None and stored.tokens == len(calibration.text_ids(smollm2))  # on the calibration text
    assert report["settings"]["anchors"] == "calibrated"
    assert tuple(report["settings"]["attention"]["anchor_layers"]) == stored.anchors
    # Calibrated on SmolLM2, the groups do not start every 4th layer (measured; the calibration is deterministic).
    assert stored.anchors != tuple(range(2, smollm2.n_layers, 4))


def test_uniform_groups_when_asked(smollm2):
    report = _run(smollm2, anchors="uniform")
    assert report["settings"]["anchors"] == "uniform" and report["settings"]["attention"]["anchor_layers"] is None


def test_a_window_too_wide_for_the_calibration_text_runs_uniform_groups_and_says_why(smollm2):
    wide = attention({"window": 8192, "topk": 64})  # the calibration text has about 3,700 of SmolLM2's tokens
    report = _run(smollm2, attention=wide, anchors="calibrated")
    assert report["settings"]["anchors"].startswith("uniform: calibration could not run (calibration text of ")
    assert report["settings"]["attention"]["anchor_layers"] is None


def test_strategies_without_index_share_calibrate_nothing(smollm2):
    report = _run(smollm2, strategies=("full_dense",), attention=attention({"window": 8192}))
    assert report["settings"]["anchors"] == "not needed: no strategy uses Index Share"
