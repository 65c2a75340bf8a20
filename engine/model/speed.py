"""A provisioned model's measured speed on this device, stored beside its weights for the pages to show.

Measured once at provision time: a dense prefill of a fixed stretch of sample text and a few greedy tokens, timed
by the engine's meter (computed CPU seconds on a CPU, so other processes on a shared machine do not inflate it).
The web reads speed.json without torch; a model provisioned before this existed simply has no figure.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

SPEED_FILE = "speed.json"
PREFILL_TOKENS = 2048  # long enough that attention counts, short enough to keep `make model` quick
DECODE_TOKENS = 16
_TEXT = Path(__file__).resolve().parents[2] / "samples" / "contracts" / "gpl-3.0.txt"


def measure_and_store(folder: Path, name: str) -> dict:
    """Time the model in `folder` and write its speed.json there; the figures written."""
    import torch  # noqa: PLC0415

    from engine.attention import AttentionConfig  # noqa: PLC0415
    from engine.generate import generate  # noqa: PLC0415
    from engine.model.loader import load_model  # noqa: PLC0415

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


def stored_speed(folder: Path) -> dict | None:
    """The speed measured at provision time, or None where it was not (or the file is unreadable)."""
    try:
        speed = json.loads((folder / SPEED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return speed if isinstance(speed, dict) else None
