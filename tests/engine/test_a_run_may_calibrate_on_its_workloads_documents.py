"""anchors=workload: Index Share's groups start at layers calibrated on the workload's own documents (their first
WORKLOAD_TOKENS), stored under the tokens' digest and read back by the next run; documents too short to calibrate
fall back to the model's calibration, and the run says why."""

from pathlib import Path

import pytest

from engine.evaluation import calibration
from engine.core.run_settings import attention

pytestmark = pytest.mark.model

APACHE = Path(__file__).resolve().parents[2] / "samples" / "contracts" / "apache-2.0.txt"


def test_documents_long_enough_calibrate_once_and_are_read_back(smollm2):
    ids = smollm2.tokenizer(APACHE.read_text(), add_special_tokens=False)["input_ids"]
    cfg = attention({})
    key = calibration._text_key(ids[:calibration.WORKLOAD_TOKENS])
    calibration.calibration_file(smollm2.name, cfg, key).unlink(missing_ok=True)

    first, used = calibration.for_run(smollm2, cfg, "workload", ids)
    assert used == "workload"
    kept = calibration.stored(smollm2.name, cfg, key)
    assert kept is not None and kept.tokens == min(len(ids), calibration.WORKLOAD_TOKENS)  # the first tokens only
    assert first.anchor_layers == kept.anchors
    # Not the model's own calibration file: another text, another key.
    assert calibration.calibration_file(smollm2.name, cfg, key) != calibration.calibration_file(smollm2.name, cfg)

    again, used = calibration.for_run(smollm2, cfg, "workload", ids)
    assert (again.anchor_layers, used) == (first.anchor_layers, "workload")


def test_documents_too_short_fall_back_to_the_models_calibration_and_say_why(smollm2):
    cfg, used = calibration.for_run(smollm2, attention({}), "workload", list(range(100, 400)))
    assert used.startswith("calibrated: the workload's documents could not calibrate (calibration text of 300 ")
    assert cfg.anchor_layers == calibration.stored(smollm2.name, attention({})).anchors
