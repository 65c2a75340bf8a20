"""`engine generate` and `engine flops` ran at AttentionConfig's own defaults (window 1,024, top-k 2,048), not the
runs' (256/256): a new user measured another Index Share than the app runs (issue 37). Left out, a flag now takes
the runs' value, and `--help` says which."""

import json

import pytest

from engine.core import ledger, run_settings
from engine.cli import attention_config, build_parser, main


def test_generate_without_flags_runs_the_apps_attention():
    args = build_parser().parse_args(["generate", "--prompt-file", "p.txt"])
    assert attention_config(args, "index_share") == run_settings.attention({})
    assert attention_config(args, "dense").window == run_settings.DEFAULTS["window"]


def test_a_flag_given_overrides_only_itself():
    args = build_parser().parse_args(["generate", "--prompt-file", "p.txt", "--topk", "512"])
    assert attention_config(args, "index_share") == run_settings.attention({"topk": 512})


def test_flops_counts_at_the_apps_attention(capsys):
    assert main(["flops", "--context", "8192", "--json"]) == 0
    counted = json.loads(capsys.readouterr().out)["index_share"]["flops_prefill"]
    expected = ledger.prefill_costs(ledger.SMOLLM2_135M, run_settings.attention({}), 8192).total_flops
    assert counted == expected


def test_the_help_names_the_runs_defaults(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["generate", "--help"])
    help_text = capsys.readouterr().out
    assert "default 256, as the app's runs" in " ".join(help_text.split())
    assert f"default {run_settings.DEFAULTS['indexer']}, as the app's runs" in " ".join(help_text.split())
