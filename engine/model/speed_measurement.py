"""Time a provisioned model on this device, once, and store its speed beside its weights (engine/core/stored_speed.py).

A dense prefill of a fixed stretch of sample text and a few greedy tokens, timed by the engine's meter (computed CPU
seconds on a CPU, so other processes on a shared machine do not inflate it). `python -m engine provision` runs it
after provisioning; it lives apart from provisioning because it runs the model, and the loader provisions.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import torch

from engine.attention import AttentionConfig
from engine.model.generate import generate
from engine.core.catalogue import CatalogueModel
from engine.model.loader import load_model
from engine.model.provisioning import provision
from engine.core.stored_speed import SPEED_FILE, stored_speed

PREFILL_TOKENS = 2048  # long enough that attention counts, short enough to keep `make model` quick
DECODE_TOKENS = 16
_TEXT = Path(__file__).resolve().parents[2] / "samples" / "contracts" / "gpl-3.0.txt"


def provision_and_time(model: CatalogueModel) -> Path:
    """The model provisioned, and timed where it has no speed yet; its cached folder."""
    folder = provision(model)
    if stored_speed(folder) is None:
        measure_and_store(folder, model.display_name)
    return folder


def measure_and_store(folder: Path, name: str) -> dict:
    """Time the model in `folder` and write its speed.json there; the figures written."""
    lm = load_model(folder)
    ids = lm.tokenizer(_TEXT.read_text(encoding="utf-8"))["input_ids"][:PREFILL_TOKENS]
    torch.manual_seed(0)
    result = generate(lm, ids, AttentionConfig(mode="dense"), DECODE_TOKENS)
    prefill = result.prefill.cpu_seconds or result.prefill.seconds
    decode = result.decode.cpu_seconds or result.decode.seconds
    speed = {
        "model": name, "device": result.prefill.device,
        "measured_on": dt.datetime.now(dt.UTC).date().isoformat(),
        "basis": "computed CPU seconds" if result.prefill.cpu_seconds is not None else "device seconds",
        "prefill_tokens": len(ids), "prefill_seconds": round(prefill, 3),
        "prefill_tokens_per_second": round(len(ids) / prefill, 1),
        "decode_tokens": result.decode_forwards,
        "decode_tokens_per_second": round(result.decode_forwards / decode, 2) if decode and result.decode_forwards
        else None,
    }
    (folder / SPEED_FILE).write_text(json.dumps(speed, indent=2) + "\n", encoding="utf-8")
    return speed
