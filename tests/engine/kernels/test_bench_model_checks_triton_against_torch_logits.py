"""`python -m engine bench-model` with the Triton backend (in the interpreter on the CPU): the whole model runs on
the kernels end to end, and the report's check compares its logits with the torch reference's at 128 tokens,
prefilled in two chunks, where the tiny preset's budget (6 blocks of 16) leaves 2 of the 8 blocks out."""

import json

from engine.cli import main


def test_the_triton_logits_agree_with_torchs_and_the_run_is_measured(tmp_path):
    code = main(["bench-model", "--preset", "tiny", "--backend", "triton", "--lengths", "128", "--prefill-chunk", "64",
                 "--decode-tokens", "1", "--modes", "dense,index_share", "--indexers", "exact",
                 "--check-length", "128", "--out", str(tmp_path / "model.json"), "--profile-dir", str(tmp_path)])
    assert code == 0
    report = json.loads((tmp_path / "model.json").read_text())
    check = report["check"]
    assert check["tokens"] == 128 and set(check["variants"]) == {"index_share:exact"}
    assert check["agrees"], check
    assert check["variants"]["index_share:exact"]["relative_error"] <= check["bound"]
    measured = report["lengths"][0]["variants"]["index_share:exact"]
    assert measured["prefill_s"] > 0 and measured["decode_s_per_token"] > 0
    assert measured["prefill_shares"]["seconds"]["indexer"] > 0
    assert (tmp_path / "cpu.json").is_file()
