"""Model shapes for the whole-model bench: a transformers config, weights drawn at random on the device.

No weights travel: `from_config` under the device context allocates and initialises every
parameter where it runs. The figures depend on the shapes alone, never on trained values.
"""

from __future__ import annotations

from transformers import LlamaConfig

# Llama-3.1-8B's published config.json, its "llama3" RoPE scaling included.
_LLAMA_31_8B = dict(
    hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
    num_key_value_heads=8, head_dim=128, vocab_size=128256, max_position_embeddings=131072,
    rms_norm_eps=1e-5, rope_theta=500000.0,
    rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                  "original_max_position_embeddings": 8192},
)

# CPU smoke runs: the same architecture (GQA 4:2, the llama3 RoPE), small enough for Triton's interpreter.
_TINY = dict(
    hidden_size=128, intermediate_size=256, num_hidden_layers=4, num_attention_heads=4,
    num_key_value_heads=2, head_dim=32, vocab_size=512, max_position_embeddings=8192,
    rms_norm_eps=1e-5, rope_theta=500000.0,
    rope_scaling={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                  "original_max_position_embeddings": 1024},
)

PRESETS = {"llama-3.1-8b": _LLAMA_31_8B, "tiny": _TINY}
# Each preset's lengths and prefill chunk unless the command line says otherwise.
DEFAULT_LENGTHS = {"llama-3.1-8b": "32K,128K,512K", "tiny": "256,512"}
DEFAULT_CHUNK = {"llama-3.1-8b": 8192, "tiny": 128}


def model_config(preset: str, longest: int) -> LlamaConfig:
    """The preset's config, its positions stretched to cover `longest` tokens (the bench goes past 128K)."""
    fields = dict(PRESETS[preset])
    fields["max_position_embeddings"] = max(fields["max_position_embeddings"], longest)
    return LlamaConfig(**fields)

# The engine's defaults (window 1K, top-k 2K) would cover a tiny run's whole prefix, so that sparse
# and dense did the same work; the tiny preset keeps every sparse mode sparse from 128 tokens (6 blocks of 16 at most).
ATTENTION = {"llama-3.1-8b": {}, "tiny": dict(block_size=16, window=32, topk=32, global_blocks=1)}
