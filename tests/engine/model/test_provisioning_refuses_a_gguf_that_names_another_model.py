"""The model packages are anonymous: before anything is converted, provisioning reads the joined GGUF's header and
refuses a file whose name, architecture, positions or licence field is not the catalogue's, saying which."""

import pytest

from engine.core.errors import EngineError
from engine.core.catalogue import QWEN_05B
from engine.model.provisioning import check_header


def test_it_accepts_the_header_the_catalogue_names(write_gguf):
    check_header(QWEN_05B, write_gguf())
    check_header(QWEN_05B, write_gguf(licence="Apache-2.0"))  # a licence field, where present, must agree


@pytest.mark.parametrize("change, message", [
    (dict(name="Qwen2.5 Coder 1.5B Instruct"), "general.name is 'Qwen2.5 Coder 1.5B Instruct', "
                                               "expected 'Qwen2.5 Coder 0.5B Instruct AWQ'"),
    (dict(architecture="llama"), "general.architecture is 'llama', expected 'qwen2'"),
    (dict(context_length=8192), "qwen2.context_length is 8192, expected 32768"),
    (dict(licence="gemma"), "general.license is 'gemma', expected 'apache-2.0'"),
])
def test_it_refuses_a_header_that_differs(write_gguf, change, message):
    with pytest.raises(EngineError, match="refusing the GGUF packaged as Qwen2.5-Coder-0.5B-Instruct") as raised:
        check_header(QWEN_05B, write_gguf(**change))
    assert message in str(raised.value)


def test_it_refuses_a_file_that_is_not_gguf(tmp_path):
    fake = tmp_path / "fake.gguf"
    fake.write_bytes(b"not a gguf file at all")
    with pytest.raises(EngineError, match="fake.gguf is not a readable GGUF file"):
        check_header(QWEN_05B, fake)
