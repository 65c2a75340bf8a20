"""A provisioned model's measured speed on this device, as stored beside its weights for the pages to show.

engine/model/speed_measurement.py measures and writes it; the web reads it here, without torch. A model provisioned
without `python -m engine provision` (the loader's first use) simply has no figure.
"""

from __future__ import annotations

import json
from pathlib import Path

SPEED_FILE = "speed.json"


def stored_speed(folder: Path) -> dict | None:
    """The speed measured at provision time, or None where it was not (or the file is unreadable)."""
    try:
        speed = json.loads((folder / SPEED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return speed if isinstance(speed, dict) else None
