"""What each model a workload can target offers: its positions, its licence and its speed measured on this device.

The speed is the one `python -m engine provision` measured and stored beside the weights (engine/core/stored_speed.py),
never a figure written here; a model provisioned without it says so. A model named by a path rather than a catalogue
name has no licence the engine can vouch for, and says "not recorded".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import EngineError
from engine.core.catalogue import MODELS, default_key, model_dir
from engine.core.model_metadata import read_metadata
from engine.core.stored_speed import stored_speed
from workloads.comparisons.target_models import model_names, model_path


@dataclass(frozen=True)
class ModelChoice:
    name: str
    positions: int | None  # None: not provisioned (or unreadable), said in `problem`
    licence: str
    speed: dict | None  # speed.json as stored at provision time
    problem: str = ""

    @property
    def summary(self) -> str:
        """One line for a select's option and the model table."""
        if self.positions is None:
            return f"{self.name}: {self.problem}"
        return f"{self.name} — {self.positions:,} positions, {self.licence}, {self.speed_text}"

    @property
    def speed_text(self) -> str:
        s = self.speed
        if not s:
            return "speed not measured yet (run `make model`)"
        decode = f", {s['decode_tokens_per_second']:g} new tokens/s" if s.get("decode_tokens_per_second") else ""
        return (f"reads {s['prefill_tokens_per_second']:,.0f} tokens/s{decode} on {s['device']} "
                f"({s['basis']}, measured {s['measured_on']})")


def choice(name: str) -> ModelChoice:
    path = model_path(name)
    key = path or default_key()
    catalogued = MODELS.get(key)
    licence = catalogued.licence if catalogued else "licence not recorded"
    try:
        positions = read_metadata(key).max_positions
    except EngineError as exc:
        return ModelChoice(name, None, licence, None, problem=str(exc))
    folder = model_dir(catalogued) if catalogued else Path(key)
    return ModelChoice(name, positions, licence, stored_speed(folder if folder.is_dir() else folder.parent))


def choices() -> list[ModelChoice]:
    """Every model a workload can target, in the settings' order (the first is a new workload's default)."""
    return [choice(name) for name in model_names()]


def fitting(positions: int, besides: str) -> list[ModelChoice]:
    """The other models that hold `positions`."""
    return [c for c in choices() if c.name != besides and c.positions is not None and c.positions >= positions]
