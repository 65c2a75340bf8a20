"""What changed since the previous period's run: Δ cost, Δ unit cost and Δ accuracy per strategy, and alerts."""

from __future__ import annotations

from workloads.models import ComparisonRun


def record_changes(run: ComparisonRun) -> None:
    """Store the run's changes against the previous period's run and replace its alerts (to be written)."""
