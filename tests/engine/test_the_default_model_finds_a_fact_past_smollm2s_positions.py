"""The default model, Qwen2.5-Coder-0.5B-Instruct, is the provisioned Qwen2 of 32,768 positions, and it answers from
a fact planted mid-way in a document longer than SmolLM2's 8,192 positions, which SmolLM2 refuses."""

import pytest

from engine.attention import AttentionConfig
from engine.core.errors import EngineError
from engine.model.generate import encode_prompt, generate
from engine.core.catalogue import QWEN_05B, default_key
from engine.core.model_metadata import read_metadata
from tests.engine.conftest import SAMPLES

pytestmark = pytest.mark.model

FACT = "Under the Harbour Freight schedule, the monthly service fee is $4,817."
QUESTION = "What is the monthly service fee under the Harbour Freight schedule? Answer with the amount only."


def _document() -> str:
    """GPL-3.0 with the fact in its middle, then the Apache licence: about 11K tokens."""
    gpl = (SAMPLES / "contracts" / "gpl-3.0.txt").read_text()
    middle = gpl.index("\n\n", len(gpl) // 2)
    return gpl[:middle] + "\n\n" + FACT + gpl[middle:] + "\n\n" + (SAMPLES / "contracts" / "apache-2.0.txt").read_text()


def _prompt(lm) -> list[int]:
    return encode_prompt(lm, f"{_document()}\n\nQuestion: {QUESTION}")


def test_the_default_is_the_provisioned_qwen2_of_32k_positions(qwen, monkeypatch):
    monkeypatch.delenv("ENGINE_MODEL", raising=False)
    assert default_key() == QWEN_05B.key
    shape = read_metadata(None)
    assert shape == qwen.metadata
    assert (shape.model_type, shape.num_layers, shape.num_heads, shape.num_kv_heads, shape.head_dim,
            shape.max_positions) == ("qwen2", 24, 14, 2, 64, 32768)
    assert qwen.text_config.rope_parameters["rope_theta"] == 1_000_000
    assert qwen.name == "Qwen2.5-Coder-0.5B-Instruct"


def test_smollm2_refuses_the_long_document(smollm2):
    ids = _prompt(smollm2)
    assert len(ids) > 8192
    with pytest.raises(EngineError, match="8192|8,192"):
        generate(smollm2, ids, AttentionConfig(mode="dense"), max_new_tokens=8)


def test_the_default_model_answers_from_the_fact_in_its_middle(qwen):
    ids = _prompt(qwen)
    assert len(ids) > 8192
    result = generate(qwen, ids, AttentionConfig(mode="dense"), max_new_tokens=8)
    print(f"\n{len(ids):,} tokens: {result.text!r}, prefill {result.prefill.cpu_seconds:.1f} computed CPU s")
    assert "4,817" in result.text or "4817" in result.text
