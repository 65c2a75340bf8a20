"""Llama, Qwen2, Mistral and Gemma3 checkpoints run with the engine's attention.

Tiny random checkpoints are built here (no hub); with a budget covering the whole
context the engine must reproduce transformers' own SDPA logits, and Gemma3 must
keep its native sliding window.
"""

import pytest
import torch
from transformers import AutoModelForCausalLM, Gemma3TextConfig, LlamaConfig, MistralConfig, Qwen2Config

from engine.attention import AttentionConfig
from engine.model.generate import attention_for
from engine.model.loader import load_model

pytestmark = pytest.mark.model  # borrows the default model's tokenizer

SMALL = dict(
    hidden_size=64, intermediate_size=128, num_hidden_layers=6, num_attention_heads=4, num_key_value_heads=2,
    head_dim=16, max_position_embeddings=512,
)
CONFIGS = {
    "llama": LlamaConfig(**SMALL),
    "qwen2": Qwen2Config(**SMALL),
    "mistral": MistralConfig(**SMALL, sliding_window=None),
    "gemma3": Gemma3TextConfig(**SMALL, sliding_window=16, layer_types=["sliding_attention", "full_attention"] * 3),
}


def _checkpoint(tmp_path, name, smollm2_tokenizer):
    torch.manual_seed(0)
    config = CONFIGS[name]
    config.vocab_size = len(smollm2_tokenizer)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    model.save_pretrained(tmp_path / name)
    smollm2_tokenizer.save_pretrained(tmp_path / name)
    return tmp_path / name


@pytest.fixture(scope="module")
def tokenizer(smollm2):
    return smollm2.tokenizer


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_full_budget_reproduces_sdpa_logits(tmp_path, tokenizer, name):
    path = _checkpoint(tmp_path, name, tokenizer)
    ours = load_model(path, dtype=torch.float32)
    reference = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32, attn_implementation="sdpa").eval()
    ids = torch.randint(0, 1000, (1, 100))
    cfg = AttentionConfig(mode="index_share", block_size=16, window=512, topk=512, dense_layers=0, group_size=2)
    with torch.inference_mode():
        got = ours.model(input_ids=ids, sparse_attention=attention_for(ours, cfg)).logits
        want = reference(input_ids=ids).logits
    assert float((got - want).norm() / want.norm()) <= 1e-5


def test_gemma3_keeps_its_sliding_window(tmp_path, tokenizer):
    path = _checkpoint(tmp_path, "gemma3", tokenizer)
    ours = load_model(path, dtype=torch.float32)
    assert ours.native_window_layers() == {0, 2, 4}
    cfg = AttentionConfig(mode="index_share", block_size=16, window=512, topk=512, dense_layers=0, group_size=2)
    assert attention_for(ours, cfg).plan.roles == ("native", "index", "native", "reuse", "native", "index")
    ids = torch.randint(0, 1000, (1, 100))
    unwindowed = AutoModelForCausalLM.from_pretrained(
        path, dtype=torch.float32, attn_implementation="sdpa", sliding_window=4096
    ).eval()
    with torch.inference_mode():
        got = ours.model(input_ids=ids, sparse_attention=attention_for(ours, cfg)).logits
        lost_window = unwindowed(input_ids=ids).logits
    # Were the window dropped, the logits would be these; they differ clearly.
    assert float((got - lost_window).norm() / lost_window.norm()) > 1e-3
