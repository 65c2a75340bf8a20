"""A model's shape, read from its config.json or its GGUF header without transformers or torch.

The web process prices and plans with the ledger, which needs only a model's dimensions: reading
them through transformers would import torch into every page view (seconds, and memory the web
workers do not need). Loading a model to run it stays in engine.model.loader.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import EngineError

log = logging.getLogger(__name__)

SUPPORTED_MODEL_TYPES = ("llama", "mistral", "qwen2", "qwen3", "gemma3", "gemma3_text")
INSTALL_HINT = (
    "install the catalogue's models with `make model`, "
    "or name a local Hugging Face folder or .gguf file with --model / ENGINE_MODEL"
)


@dataclass(frozen=True)
class ModelMetadata:
    """What the ledger and the planning need of a decoder: its dimensions and its positions."""

    model_type: str
    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    vocab_size: int
    max_positions: int
    sliding_window: int = 0
    layer_types: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, config: dict) -> ModelMetadata:
        """From a Hugging Face config as a dict (config.json, or a transformers config's to_dict())."""
        text = config.get("text_config") or config  # multimodal configs (Gemma 3) nest the decoder's
        model_type = text.get("model_type") or config.get("model_type") or "?"
        if config.get("is_encoder_decoder") or model_type not in SUPPORTED_MODEL_TYPES:
            raise EngineError(f"a {model_type!r} model; the engine runs decoder-only models of type "
                              f"{', '.join(SUPPORTED_MODEL_TYPES)}")
        try:
            heads = int(text["num_attention_heads"])
            hidden = int(text["hidden_size"])
            return cls(
                model_type=model_type, hidden_size=hidden, intermediate_size=int(text["intermediate_size"]),
                num_layers=int(text["num_hidden_layers"]), num_heads=heads,
                num_kv_heads=int(text.get("num_key_value_heads") or heads),
                head_dim=int(text.get("head_dim") or hidden // heads), vocab_size=int(text["vocab_size"]),
                max_positions=int(text["max_position_embeddings"]),
                sliding_window=int(text.get("sliding_window") or 0),
                layer_types=tuple(text.get("layer_types") or ()),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineError(f"the model's config lacks a readable {exc}") from exc

    @classmethod
    def from_transformers(cls, config) -> ModelMetadata:
        """From a loaded transformers config (no transformers import needed: it is a dict underneath)."""
        return cls.from_dict(config.get_text_config().to_dict())

    def native_window_layers(self) -> frozenset[int]:
        """Layers the model itself runs as local sliding-window attention (the engine leaves them so)."""
        if self.layer_types:
            return frozenset(i for i, t in enumerate(self.layer_types) if t == "sliding_attention")
        if self.sliding_window:
            log.warning("this model uses a sliding window in every layer; attention modes cannot change it")
            return frozenset(range(self.num_layers))
        return frozenset()


def read_metadata(path: str | os.PathLike | None = None) -> ModelMetadata:
    """The shape of the model at `path` (a Hugging Face folder or a .gguf file, or a catalogue name, which must
    have been provisioned: `make model`); None: the default model (ENGINE_MODEL, else the catalogue's default)."""
    from engine.core.catalogue import MODELS, default_key, model_dir  # noqa: PLC0415  (torch-free)

    path = path or os.environ.get("ENGINE_MODEL") or default_key()
    if str(path) in MODELS:
        model = MODELS[str(path)]
        folder = model_dir(model)
        if not (folder / "config.json").is_file():
            raise EngineError(f"{model.display_name} is not provisioned in {folder}; install it with {model.install}")
        return _from_json(folder / "config.json")
    path = checked_model_path(path)
    return _from_gguf(path) if path.is_file() else _from_json(path / "config.json")


def checked_model_path(path: str | os.PathLike) -> Path:
    """`path` as a Path, once it is a .gguf file or a Hugging Face folder with a config.json; EngineError
    saying which it is not otherwise."""
    path = Path(path)
    if not path.exists():
        raise EngineError(f"model path {path} does not exist; {INSTALL_HINT}")
    if path.is_file():
        if path.suffix.lower() != ".gguf":
            raise EngineError(f"{path} is a file but not a .gguf model; name a Hugging Face folder or a .gguf file")
    elif not (path / "config.json").is_file():
        raise EngineError(f"{path} has no config.json: not a Hugging Face model folder")
    return path


def _from_json(file: Path) -> ModelMetadata:
    try:
        config = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EngineError(f"{file} is not a readable model config: {exc}") from exc
    if not isinstance(config, dict):
        raise EngineError(f"{file} is not a readable model config: not a JSON object")
    return _named(file, lambda: ModelMetadata.from_dict(config))


# GGUF header keys, under the architecture's prefix ("llama.block_count"), as llama.cpp writes them.
_GGUF_KEYS = {"hidden_size": "embedding_length", "intermediate_size": "feed_forward_length",
              "num_hidden_layers": "block_count", "num_attention_heads": "attention.head_count",
              "num_key_value_heads": "attention.head_count_kv", "head_dim": "attention.key_length",
              "max_position_embeddings": "context_length", "sliding_window": "attention.sliding_window",
              "vocab_size": "vocab_size"}


def _from_gguf(file: Path) -> ModelMetadata:
    try:
        from gguf import GGUFReader  # noqa: PLC0415  (the GPU image has no gguf; only GGUF paths need it)
    except ImportError as exc:
        raise EngineError(f"reading {file} needs the gguf package (pip install gguf)") from exc

    def read() -> ModelMetadata:
        reader = GGUFReader(file)
        arch = _field(reader, "general.architecture")
        config = {"model_type": arch}
        for name, key in _GGUF_KEYS.items():
            value = _field(reader, f"{arch}.{key}")
            if value is not None:
                config[name] = value
        if "vocab_size" not in config:  # llama.cpp leaves it out when the token list says it
            config["vocab_size"] = len(reader.fields["tokenizer.ggml.tokens"].data)
        return ModelMetadata.from_dict(config)

    return _named(file, read)


def _field(reader, key: str):
    field = reader.fields.get(key)
    return None if field is None else field.contents()


def _named(file: Path, read) -> ModelMetadata:
    try:
        return read()
    except EngineError as exc:
        raise EngineError(f"{file}: {exc}") from exc
    # Broad on purpose, as the loader's parsing: a truncated or fake GGUF fails with whatever its reader hits.
    except Exception as exc:
        raise EngineError(f"{file} is not a readable model: {type(exc).__name__}: {exc}") from exc
