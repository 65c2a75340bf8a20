"""Bad input gets one clear line on stderr and exit status 2, never a traceback."""

import json

import pytest

from engine.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def prompt(tmp_path):
    path = tmp_path / "prompt.txt"
    path.write_text("Say hello.")
    return str(path)


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--mode", "turbo"], "unknown attention mode 'turbo'"),
        (["--indexer", "magic"], "unknown indexer 'magic'"),
        (["--topk", "-5"], "top-k must be between 0 and"),
        (["--window", "0"], "window must be between"),
        (["--group-size", "0"], "group size must be between 1 and"),
        (["--block-size", "48"], "block size must be a power of two"),
        (["--dense-layers", "-1"], "dense layers must be between"),
    ],
)
def test_it_rejects_attention_settings_out_of_range(capsys, prompt, flags, message):
    code, out, err = _run(capsys, "generate", "--prompt-file", prompt, *flags)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert out == ""


def test_it_rejects_a_model_path_that_does_not_exist(capsys, prompt, tmp_path):
    code, _, err = _run(capsys, "generate", "--prompt-file", prompt, "--model", str(tmp_path / "nowhere"))
    assert code == 2
    assert "does not exist" in err and "make model" in err


def test_it_rejects_a_checkpoint_that_is_not_a_decoder(capsys, prompt, tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "t5", "is_encoder_decoder": True}))
    code, _, err = _run(capsys, "generate", "--prompt-file", prompt, "--model", str(tmp_path))
    assert code == 2
    assert "'t5' model" in err and "decoder-only" in err


def test_it_rejects_a_folder_without_a_config(capsys, prompt, tmp_path):
    code, _, err = _run(capsys, "generate", "--prompt-file", prompt, "--model", str(tmp_path))
    assert code == 2 and "no config.json" in err


def test_it_rejects_a_file_that_is_not_gguf(capsys, prompt, tmp_path):
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"\x00" * 16)
    code, _, err = _run(capsys, "generate", "--prompt-file", prompt, "--model", str(weights))
    assert code == 2 and "not a .gguf model" in err


@pytest.mark.parametrize(
    "name,content",
    [
        ("fake.gguf", b"this is not a model\n"),
        ("truncated.gguf", b"GGUF\x03\x00\x00\x00"),  # the magic and version, then nothing
    ],
)
def test_it_rejects_a_fake_or_truncated_gguf_as_unreadable(capsys, prompt, tmp_path, name, content):
    model = tmp_path / name
    model.write_bytes(content)
    for argv in (["generate", "--prompt-file", prompt], ["flops", "--context", "10", "--preset", "model"]):
        code, out, err = _run(capsys, *argv, "--model", str(model))
        assert code == 2 and out == ""
        assert f"{model} is not a readable model" in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


def test_it_rejects_a_model_folder_with_a_config_but_no_tokenizer_or_weights(capsys, prompt, tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama"}))
    code, out, err = _run(capsys, "generate", "--prompt-file", prompt, "--model", str(tmp_path))
    assert code == 2 and out == ""
    assert f"{tmp_path} is not a readable model" in err and len(err.strip().splitlines()) == 1


def test_it_rejects_a_negative_prefill_chunk(capsys, prompt, smollm2):
    code, out, err = _run(capsys, "generate", "--prompt-file", prompt, "--prefill-chunk", "-8")
    assert code == 2 and "prefill chunk must be 1 token or more" in err and out == ""


def test_it_rejects_a_missing_empty_or_binary_prompt(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    binary = tmp_path / "blob.txt"
    binary.write_bytes(b"\xff\xfe\x00\x81" * 10)
    for path, message in [
        (tmp_path / "missing.txt", "does not exist"), (empty, "prompt is empty"), (binary, "not UTF-8")
    ]:
        code, _, err = _run(capsys, "generate", "--prompt-file", str(path))
        assert code == 2 and message in err


def test_it_says_a_prompt_file_that_is_a_directory_is_one(capsys, tmp_path):
    code, out, err = _run(capsys, "generate", "--prompt-file", str(tmp_path))
    assert code == 2 and out == ""
    assert "is a directory" in err and "does not exist" not in err


@pytest.mark.model
def test_it_rejects_a_prompt_longer_than_the_models_positions(capsys, tmp_path, smollm2):
    long_prompt = tmp_path / "long.txt"
    long_prompt.write_text("word " * 9000)
    code, out, err = _run(capsys, "generate", "--prompt-file", str(long_prompt), "--max-new-tokens", "4")
    assert code == 2
    assert "8192 positions" in err and "never truncates" in err
    assert out == ""


def test_flops_rejects_an_unknown_preset_and_a_silly_context(capsys):
    code, _, err = _run(capsys, "flops", "--preset", "gpt-9", "--context", "10")
    assert code == 2 and "unknown preset 'gpt-9'" in err
    code, _, err = _run(capsys, "flops", "--context", "0")
    assert code == 2 and "context must be between" in err


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--topk", "0"], "top-k must be 1 token or more"),
        (["--dense-layers", "30"], "dense layers must be fewer than the model's 30 layers, got 30"),
        (["--dense-layers", "999"], "dense layers must be fewer than the model's 30 layers, got 999"),
        (["--preset", "glm-5.2-like", "--dense-layers", "200"], "fewer than the model's 78 layers"),
    ],
)
def test_flops_rejects_settings_that_leave_nothing_to_compare(capsys, flags, message):
    code, out, err = _run(capsys, "flops", "--context", "4096", *flags)
    assert code == 2 and out == ""
    assert message in err


def test_flops_refuses_a_model_it_would_ignore(capsys, tmp_path):
    code, out, err = _run(capsys, "flops", "--context", "10", "--model", str(tmp_path))
    assert code == 2 and out == "" and "--preset model" in err


@pytest.mark.parametrize("seed", [-1, 1 << 64])
def test_check_rejects_a_seed_the_generator_cannot_hold(capsys, seed):
    code, out, err = _run(capsys, "check", "--backend", "torch", "--seed", str(seed))
    assert code == 2 and out == "" and "--seed must be between 0 and" in err
