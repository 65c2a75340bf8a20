"""An upload that pushes a workload past its model's positions, said on the upload page at once.

Without it the user learns from a finished run that every whole-document strategy refused. The warning names the
offered models that hold the documents (their token counts are the target model's tokenizer's, so for another model
the figure is about right, not exact) or, where none does, the strategies that still run within the model.
"""

from __future__ import annotations

from engine.core import run_settings
from workloads.comparisons import fit, model_choices
from workloads.models import Workload


def outgrown_warning(workload: Workload) -> str:
    """'' while every whole-document strategy fits the workload's model; else what to do instead."""
    preflight = fit.preflight(workload, run_settings.STRATEGIES)
    refusing = [row for row in preflight.rows if row.full_context and not row.fits]
    if not preflight.documents or not refusing:
        return ""
    needed = max(row.positions for row in refusing)
    still = [run_settings.NAMES[row.strategy] for row in preflight.rows if row.fits and not row.full_context]
    others = model_choices.fitting(needed, besides=workload.target_model)
    said = (f"The documents now need about {needed:,} positions and {workload.target_model} holds "
            f"{preflight.max_positions:,}: every whole-document strategy would refuse.")
    if others:
        names = ", ".join(f"{c.name} ({c.positions:,} positions)" for c in others)
        said += f" A model that fits: {names}; choose it on the workload's edit page."
    if still:
        said += f" These strategies still work within {workload.target_model}: {', '.join(still)}."
    elif not others:
        said += " No offered model holds them, and no strategy fits: remove documents or split them."
    return said
