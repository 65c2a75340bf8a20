"""`python -m engine bench-model` on the CPU: the tiny preset (random weights), the torch backend, two lengths.

Every length gets every mode (dense, both sparse modes with both indexers), each with the
prefill, decode, memory and share fields the issue asks for; the shares add up to the forward's
time; the device profile is written beside the report with seconds per question.
"""

import json
import math

import pytest

from engine.attention import AttentionConfig
from engine.cli import main
from engine.core.device_profile import read_profile, seconds_per_question

VARIANTS = {"dense:cpu-sdpa", "naive_sparse:pooled", "naive_sparse:exact", "index_share:pooled", "index_share:exact"}
FIELDS = {"prefill_s", "prefill_chunks", "decode_s_per_token", "decode_tokens", "peak_memory_bytes", "memory_kind",
          "indexer_passes", "prefill_shares", "decode_shares"}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench_model")
    code = main(["bench-model", "--preset", "tiny", "--device", "cpu", "--backend", "torch", "--lengths", "128,192",
                 "--prefill-chunk", "64", "--decode-tokens", "8", "--answer-tokens", "10", "--check-length", "0",
                 "--out", str(folder / "model.json"), "--profile-dir", str(folder)])
    assert code == 0
    return folder, json.loads((folder / "model.json").read_text())


def test_every_length_has_every_mode_with_every_field(finished):
    _, report = finished
    assert report["complete"] and report["device"].startswith("cpu") and report["versions"]["torch"]
    assert [row["tokens"] for row in report["lengths"]] == [128, 192]
    for row in report["lengths"]:
        assert set(row["variants"]) == VARIANTS
        for measured in row["variants"].values():
            assert set(measured) == FIELDS
            assert measured["prefill_s"] > 0 and measured["decode_s_per_token"] > 0
            assert measured["prefill_chunks"] == math.ceil(row["tokens"] / 64)
        assert row["dense_best"]["variant"] == "dense:cpu-sdpa"


def test_the_shares_add_up_to_the_forwards_time(finished):
    _, report = finished
    for row in report["lengths"]:
        for name, measured in row["variants"].items():
            # Layers 2 and 3 are sparse (2 dense first): naive sparse scores in both, index share in one, at every
            # prefill chunk and every decode step that re-selects.
            reselecting = sum(map(AttentionConfig().reselects_at, range(1, measured["decode_tokens"] + 1)))
            for phase, total, scores in (
                ("prefill_shares", measured["prefill_s"], True),
                ("decode_shares", measured["decode_s_per_token"] * measured["decode_tokens"], reselecting > 0),
            ):
                parts = measured[phase]
                assert sum(parts["seconds"].values()) == pytest.approx(total)
                assert sum(parts["share"].values()) == pytest.approx(1.0)
                assert parts["seconds"]["attention"] > 0
                # Only the sparse modes run an indexer, and in decoding only at the steps that re-select.
                assert (parts["seconds"]["indexer"] > 0) == (scores and not name.startswith("dense"))
            forwards = math.ceil(row["tokens"] / 64) + reselecting
            per_forward = {"dense": 0, "naive_sparse": 2, "index_share": 1}[name.split(":")[0]]
            assert measured["indexer_passes"] == per_forward * forwards

def test_the_profile_gives_seconds_per_question_for_every_strategy(finished):
    folder, report = finished
    profile = read_profile("cpu", folder)
    assert profile["device"] == report["device"] and profile["answer_tokens"] == 10
    assert set(profile["strategies"]) == {"dense", *(v for v in VARIANTS if not v.startswith("dense"))}
    for row in report["lengths"]:
        measured = row["variants"]["index_share:exact"]
        expected = measured["prefill_s"] + 10 * measured["decode_s_per_token"]
        assert seconds_per_question(profile, "index_share:exact", row["tokens"]) == pytest.approx(expected)
