"""Device profiles: what one question measurably costs on a device, per strategy and context length.

`python -m engine bench-model` writes one for a GPU (benchmarks/profiles/<device>.json) from its measurements, and
benchmarks/cpu_long_context.py one for the CPU (cpu.json); the planning page reads them in the web process, so this
module imports neither torch nor anything that does. A question at a context is one chunked prefill of that many
tokens plus an answer of `answer_tokens` one-token forwards at that context:
    seconds_per_question = prefill_s + answer_tokens * decode_s_per_token
A point may also carry the ledger's FLOPs of its prefill and of one decoded token (prefill_flops,
decode_flops_per_token): from them planning reads the device's seconds per FLOP at each measured length.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.core.errors import EngineError
from engine.core.jsonfile import write_json_atomic

PROFILE_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "profiles"
FORMAT = 1
_REQUIRED = ("format", "device", "device_class", "date", "versions", "answer_tokens", "strategies")


def device_class(device_name: str) -> str:
    """'NVIDIA H200' -> 'h200', 'cpu (2 threads)' -> 'cpu': the key a price book's device class matches."""
    name = device_name.lower().removeprefix("nvidia ").split("(")[0].strip()
    return re.sub(r"[^a-z0-9]+", "-", name.split()[0] if name else "unknown").strip("-")


def profile_from_report(report: dict, answer_tokens: int) -> dict:
    """The profile of a bench-model report: every variant measured at every length, seconds per question.

    Dense is the fastest dense backend at each length (named); the sparse modes are keyed mode:indexer.
    """
    strategies: dict[str, dict[str, dict]] = {}
    for row in report["lengths"]:
        for name, measured in row["variants"].items():
            if "prefill_s" not in measured or measured["decode_s_per_token"] is None:
                continue
            key = "dense" if name.startswith("dense:") else name
            if key == "dense" and (row.get("dense_best") or {}).get("variant") != name:
                continue
            strategies.setdefault(key, {})[str(row["tokens"])] = point(
                measured["prefill_s"], measured["decode_s_per_token"], measured["peak_memory_bytes"], answer_tokens,
                **({"sdpa_backend": name.split(":", 1)[1]} if key == "dense" else {}))
    return make_profile(report["device"], report["date"], report["versions"], report["preset"], answer_tokens,
                        "python -m engine bench-model", strategies)


def point(prefill_s: float, decode_s_per_token: float, peak_memory_bytes: int, answer_tokens: int, **extra) -> dict:
    """One measured length of one strategy."""
    return {"prefill_s": prefill_s, "decode_s_per_token": decode_s_per_token,
            "seconds_per_question": prefill_s + answer_tokens * decode_s_per_token,
            "peak_memory_bytes": peak_memory_bytes, **extra}


def make_profile(device: str, date: str, versions: dict, model_shape: str, answer_tokens: int, source: str,
                 strategies: dict[str, dict[str, dict]]) -> dict:
    """A profile: `strategies` maps "dense" or "mode:indexer" to its points by token count (point())."""
    return {"format": FORMAT, "device": device, "device_class": device_class(device), "date": date,
            "versions": versions, "model_shape": model_shape, "answer_tokens": answer_tokens, "source": source,
            "strategies": strategies}


def write_profile(report: dict, folder: Path, answer_tokens: int) -> Path:
    return save_profile(profile_from_report(report, answer_tokens), folder)


def save_profile(profile: dict, folder: Path) -> Path:
    """profile as <folder>/<device class>.json."""
    path = Path(folder) / f"{profile['device_class']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, profile)
    return path


def read_profile(device_class_name: str, folder: Path | None = None) -> dict | None:
    """The profile for a device class ('H200', 'h200'), None when none was measured; EngineError if malformed."""
    path = Path(folder or PROFILE_DIR) / f"{device_class(device_class_name)}.json"
    if not path.is_file():
        return None
    try:
        profile = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise EngineError(f"device profile {path} cannot be read: {error}") from error
    missing = [k for k in _REQUIRED if k not in profile]
    if missing or profile["format"] != FORMAT:
        raise EngineError(f"device profile {path} is not a format-{FORMAT} profile (missing {', '.join(missing)})")
    return profile


def seconds_per_question(profile: dict, strategy: str, tokens: int) -> float | None:
    """Measured seconds for one question of `strategy` at exactly `tokens` of context; None if not measured."""
    point = profile["strategies"].get(strategy, {}).get(str(tokens))
    return None if point is None else point["seconds_per_question"]
