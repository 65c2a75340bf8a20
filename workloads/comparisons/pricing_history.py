"""A run's pricings side by side, for its page: the original and every re-pricing, each strategy's dollars in each."""

from __future__ import annotations

from dataclasses import dataclass

from workloads.models import ComparisonRun, RunPricing


@dataclass(frozen=True)
class PricingHistory:
    pricings: list[RunPricing]  # oldest first: the original, then each re-pricing
    rows: list[tuple[str, list[tuple[float | None, float | None]]]]  # (strategy, [(device $, API $) per pricing])


def table(run: ComparisonRun) -> PricingHistory | None:
    """None until a run has more than one pricing: with one, the run's own figures are the whole story. The strategies
    are read only then (the run page keeps the rest of a finished run's figures as HTML, and reads none of them)."""
    pricings = list(run.pricings.select_related("gpu_price", "api_price", "created_by"))
    if len(pricings) < 2:
        return None
    rows = []
    for strategy in run.results.filter(refused="").values_list("strategy", flat=True):
        cells = []
        for kept in pricings:
            figures = kept.dollars.get(strategy) or {}
            cells.append((figures.get("device_dollars"), figures.get("api_dollars")))
        rows.append((strategy, cells))
    return PricingHistory(pricings, rows)
