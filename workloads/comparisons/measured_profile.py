"""Measured figures for planning: a device profile (engine.core.device_profile) for a device class in the price book.

The projection's lines come from the ledger's FLOPs at a CPU-measured rate; a profile holds what a whole model
measurably took on a device, per strategy and context length. Where the price book prices a device class that
has a profile, planning shows those figures beside the projected ones, labelled "<class>: measured", at the
lengths that were measured and nowhere else. A profile is measured on its own model shape (a GPU bench's preset with
random weights, the CPU benchmark's default model), which the label names: it is not the workload's target model.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings

from engine.core.device_profile import read_profile, seconds_per_question
from engine.core.run_settings import shown
from workloads.models import GpuPrice, Organisation

# The whole-document strategies a profile measures, uncached, by the bench's mode.
PROFILED = {"full_dense": "dense", "full_naive_sparse": "naive_sparse", "full_index_share": "index_share"}


@dataclass(frozen=True)
class MeasuredLines:
    label: str  # "H200: measured"
    lengths: list[int]  # the lengths some strategy was measured at
    seconds: dict[str, list[float | None]]  # strategy -> seconds per question at each length (None: not measured)
    dollars: dict[str, list[float | None]] | None  # at the price book's rate; None when priced at $0
    note: str


def measured_lines(organisation: Organisation, indexer: str, on: dt.date, first: str = "") -> MeasuredLines | None:
    """The price book's device class `first` (the run's), else the first by name, that has a profile, as lines over
    its measured lengths; None if none does."""
    classes = sorted(set(GpuPrice.objects.filter(organisation=organisation, effective_from__lte=on)
                         .values_list("device_class", flat=True)), key=lambda c: (c.lower() != first.lower(), c))
    for device_class in classes:
        profile = read_profile(device_class, settings.DEVICE_PROFILE_DIR)
        if profile is None:
            continue
        keys = {s: f"{mode}:{indexer}" if mode != "dense" else mode for s, mode in PROFILED.items()}
        lengths = sorted({int(n) for key in keys.values() for n in profile["strategies"].get(key, {})})
        seconds = {s: [seconds_per_question(profile, key, n) for n in lengths] for s, key in keys.items()}
        price = (GpuPrice.objects.filter(organisation=organisation, device_class__iexact=device_class,
                                         effective_from__lte=on).order_by("-effective_from", "-pk").first())
        per_hour = float(price.per_hour)
        dollars = ({s: [None if v is None else v / 3600 * per_hour for v in values] for s, values in seconds.items()}
                   if per_hour else None)
        weights = "random weights" if profile["source"].startswith("python -m engine") else "its own weights"
        note = (f"{device_class}: measured on {profile['device']} on {profile['date'][:10]} by "
                f"{profile['source']} (the {profile['model_shape']} shape with {weights}, indexer "
                f"{shown('indexer', indexer)}, "
                f"{profile['answer_tokens']}-token answers), at {', '.join(f'{n:,}' for n in lengths) or 'no'} "
                "tokens; every other figure is projected from the ledger.")
        return MeasuredLines(f"{device_class}: measured", lengths, seconds, dollars, note)
    return None

