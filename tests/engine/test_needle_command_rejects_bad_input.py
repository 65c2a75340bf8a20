"""`engine needle` checks everything it is given before the model loads: one clear line, exit status 2."""

import pytest

from engine.cli import main


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--settings", "turbo"], "unknown attention mode 'turbo'"),
        (["--settings", "index_share:magic"], "unknown indexer 'magic'"),
        (["--settings", "naive_sparse:pooled_mass+doc"], "only index_share has anchor layers to calibrate"),
        (["--settings", "index_share:pooled_mass+cal+doc"], "unknown indexer 'pooled_mass+cal'"),
        (["--settings", ""], "name at least one setting"),
        (["--budget", "0"], "the budget is a share of the prompt's length"),
        (["--budget", "1.5"], "the budget is a share of the prompt's length"),
        (["--budget", "0.01"], "leaves no room for top-k"),
        (["--lengths", "2K,lots"], "not a token count: 'lots'"),
        (["--depths", "0.1,deep"], "not a depth: 'deep'"),
        (["--facts", "0"], "facts per cell must be between 1"),
        (["--distractors", "8"], "distractors must be between 0 and 7"),
        (["--distractors", "-1"], "distractors must be between 0 and 7"),
        (["--settings", "index_share:pooled_mass@lots"], "a setting's budget is a share such as @0.125"),
        (["--settings", "index_share:pooled_mass@2"], "the budget is a share of the prompt's length"),
        (["--depths", "0.5,1.2"], "between 0 and 1; got 1.2"),
        (["--lengths", "100"], "lengths start at 256"),
        (["--docs", "/no/such/file.txt"], "does not exist"),
        (["--hops", "3"], "--hops is 1 (each fact in one sentence) or 2 (each fact in two halves), got 3"),
        (["--hops", "0"], "--hops is 1 (each fact in one sentence) or 2 (each fact in two halves), got 0"),
        (["--hops", "2", "--depths", "0.5"], "needs two depths or more, each later one deeper than the first"),
        (["--hops", "2", "--depths", "0.5,0.3"], "each later one deeper than the first; got 0.5,0.3"),
    ],
)
def test_it_rejects_bad_grid_settings(capsys, tmp_path, flags, message):
    code = main(["needle", "--json", str(tmp_path / "grid.json"), *flags])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "grid.json").exists()


def test_it_refuses_an_output_folder_that_does_not_exist(capsys, tmp_path):
    code = main(["needle", "--json", str(tmp_path / "missing" / "grid.json")])
    assert code == 2 and "its folder does not exist" in capsys.readouterr().err
