"""What a comparison is asked to do and at what prices: the documents, the probes, the strategies and the run's
settings, as engine.strategies.compare runs them and engine.strategies.run_plan plans them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core import run_settings
from engine.core.attention_config import AttentionConfig
from engine.core.documents import DocumentText
from engine.core.errors import EngineError
from engine.core.probes import ProbeQuestion


@dataclass(frozen=True)
class Prices:
    """Prices for one run. Device: dollars per device-hour. API: dollars per million tokens."""

    per_device_hour: float
    api_input_per_mtok: float
    api_output_per_mtok: float

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            # Not NaN or infinity either: the report's costs and its JSON would carry them.
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise EngineError(f"price {name.replace('_', ' ')} must be a number, 0 or more; got {value!r}")


@dataclass
class ComparisonWork:
    """What a comparison is asked to do: the documents, the probes, the strategies and the run's settings (the web
    app's Workload and ComparisonRun, as the engine reads them)."""

    documents: Sequence[DocumentText]
    probes: Sequence[ProbeQuestion]
    # The defaults are engine.core.run_settings', as the web app's and the CLI's are.
    strategies: Sequence[str] = run_settings.DEFAULT_STRATEGIES
    chunk_tokens: int = run_settings.DEFAULTS["chunk_tokens"]
    chunk_overlap: int = run_settings.DEFAULTS["chunk_overlap"]
    attention: AttentionConfig = field(default_factory=lambda: run_settings.attention({}))
    anchors: str = run_settings.DEFAULTS["anchors"]  # where Index Share's groups start (run_settings.ANCHORS)
    prices: Prices = field(default_factory=lambda: Prices(**run_settings.CLI_PRICES))
    gate_points: float = run_settings.DEFAULTS["gate_points"]
    retrieval_chunks: int = run_settings.DEFAULTS["retrieval_chunks"]  # 0: as many as fit retrieval_tokens
    retrieval_tokens: int = run_settings.DEFAULTS["retrieval_tokens"]
    diagnostics: bool = True  # top-1 agreement and index overlap: extra, unbilled passes

    @classmethod
    def from_settings(cls, documents: Sequence[DocumentText], probes: Sequence[ProbeQuestion],
                      strategies: Sequence[str], values: dict, prices: Prices) -> ComparisonWork:
        """The work at a run's settings (engine.core.run_settings' table), each checked, unset ones at their
        defaults: the attention's go into `attention`, every other into the field of its name."""
        settled = run_settings.check_values(values)
        return cls(documents=documents, probes=probes, strategies=strategies, prices=prices,
                   attention=run_settings.attention(settled),
                   **{s.name: settled[s.name] for s in run_settings.SETTINGS if not s.attention})
