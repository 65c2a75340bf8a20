"""`engine compare` and `engine probes` reject bad input before running, and leave no JSON behind."""

import pytest

from engine.cli import main

GOOD_DOC = "The monthly service fee is $4,500.\n"
GOOD_PROBE = '{"question": "What is the monthly service fee?", "answer": "$4,500"}\n'


@pytest.fixture
def files(tmp_path):
    (tmp_path / "doc.txt").write_text(GOOD_DOC)
    (tmp_path / "probes.jsonl").write_text(GOOD_PROBE)
    return tmp_path


def _compare(capsys, tmp_path, *extra, docs=("doc.txt",), probes="probes.jsonl"):
    out = tmp_path / "out.json"
    argv = [
        "compare", "--docs", *[str(tmp_path / d) for d in docs], "--probes", str(tmp_path / probes),
        "--json", str(out), *extra,
    ]
    code = main(argv)
    err = capsys.readouterr().err
    assert not out.exists(), "no partial JSON is left behind"
    assert "Traceback" not in err
    return code, err


def test_it_rejects_an_empty_document(capsys, files):
    (files / "empty.txt").write_text("\n \n")
    code, err = _compare(capsys, files, docs=("doc.txt", "empty.txt"))
    assert code == 2 and "empty.txt" in err and "empty" in err


def test_it_rejects_a_binary_file_given_as_text(capsys, files):
    (files / "scan.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    code, err = _compare(capsys, files, docs=("scan.txt",))
    assert code == 2 and "scan.txt" in err and "binary" in err


def test_it_names_the_malformed_line_of_a_probe_file(capsys, files):
    (files / "bad.jsonl").write_text(GOOD_PROBE + GOOD_PROBE + '{"question": "Unclosed?", "answer": \n')
    code, err = _compare(capsys, files, probes="bad.jsonl")
    assert code == 2 and "line 3" in err


def test_it_rejects_an_unknown_strategy(capsys, files):
    code, err = _compare(capsys, files, "--strategies", "full_dense,full_magic")
    assert code == 2 and "unknown strategy 'full_magic'" in err


@pytest.mark.parametrize("flag,value,message", [
    ("--retrieval-chunks", "-1", "retrieval chunks must be a number from 0 to"),
    ("--retrieval-tokens", "8", "retrieval tokens must be a number from 16 to"),
])
def test_it_rejects_retrieval_settings_out_of_range(capsys, files, flag, value, message):
    code, err = _compare(capsys, files, flag, value)
    assert code == 2 and message in err


@pytest.mark.model
def test_it_rejects_a_chunk_larger_than_the_models_positions(capsys, files):
    code, err = _compare(capsys, files, "--chunk-tokens", "100000")
    assert code == 2 and "chunk size must be between 16 and 7936" in err


@pytest.mark.parametrize("flag,value", [("--api-input-price", "inf"), ("--price-per-hour", "nan")])
def test_it_rejects_a_price_that_is_not_a_finite_number(capsys, files, flag, value):
    code, err = _compare(capsys, files, flag, value)
    assert code == 2 and "must be a number, 0 or more" in err


def test_it_rejects_an_overlap_as_large_as_the_chunk(capsys, files):
    code, err = _compare(capsys, files, "--chunk-tokens", "64", "--chunk-overlap", "64")
    assert code == 2 and "chunk overlap (64 tokens) must be smaller than the chunk size (64 tokens)" in err


@pytest.mark.model
def test_it_rejects_a_json_path_in_a_missing_folder(capsys, files):
    code = main([
        "compare", "--docs", str(files / "doc.txt"), "--probes", str(files / "probes.jsonl"),
        "--json", str(files / "no" / "out.json"),
    ])
    assert code == 2 and "folder does not exist" in capsys.readouterr().err


def test_probes_command_rejects_documents_with_nothing_to_ask(capsys, files):
    (files / "plain.txt").write_text("nothing here but lowercase words without facts\n")
    code = main(["probes", "--docs", str(files / "plain.txt"), "--out", str(files / "p.jsonl")])
    assert code == 2 and "found no facts" in capsys.readouterr().err
    assert not (files / "p.jsonl").exists()
