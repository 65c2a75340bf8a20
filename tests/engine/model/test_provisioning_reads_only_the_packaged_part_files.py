"""Provisioning finds each part by its distribution's file list and reads its bytes: the anonymous packages' code is
never imported. A missing package, a part its distribution does not list, or joined bytes of another sha256 are
refused with what to reinstall, and nothing is left in the model cache."""

import dataclasses
import hashlib
import sys

import pytest

from engine.core.errors import EngineError
from engine.core.catalogue import QWEN_05B, model_dir
from engine.model.provisioning import join_parts, part_files, provision


def test_it_finds_the_default_models_parts_without_importing_them():
    parts = part_files(QWEN_05B)
    assert [p.name for p in parts] == [f"part{i:02d}.bin" for i in range(1, 7)]
    assert not any(name.startswith("pandas_sns") for name in sys.modules)


def test_the_joined_parts_are_the_bytes_in_order(tmp_path):
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    a.write_bytes(b"GGUF\x03")
    b.write_bytes(b"rest")
    assert join_parts([a, b], tmp_path / "joined.gguf") == hashlib.sha256(b"GGUF\x03rest").hexdigest()
    assert (tmp_path / "joined.gguf").read_bytes() == b"GGUF\x03rest"


@pytest.mark.parametrize("parts, message", [
    ((("no-such-model-part1", "x/part01.bin"),), "is not installed (no no-such-model-part1)"),
    ((("pytest", "pytest/part01.bin"),), "does not hold pytest/part01.bin"),
])
def test_it_refuses_parts_that_are_not_installed(parts, message):
    with pytest.raises(EngineError, match="install") as raised:
        part_files(dataclasses.replace(QWEN_05B, parts=parts))
    assert message in str(raised.value)


def test_it_refuses_joined_bytes_of_another_sha256_and_caches_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ENGINE_CACHE_DIR", str(tmp_path))
    # A real installed file standing in for a part: its bytes are not the model's.
    other = dataclasses.replace(QWEN_05B, key="impostor", parts=(("pytest", "pytest/__init__.py"),))
    with pytest.raises(EngineError, match=f"has sha256 [0-9a-f]{{64}}, expected {QWEN_05B.sha256}"):
        provision(other)
    assert not model_dir(other).exists() and list((tmp_path / "models").iterdir()) == []
