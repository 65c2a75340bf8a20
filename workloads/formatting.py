"""Numbers and names as people read them: dollars precise enough for tiny CPU costs, FLOPs in engineering units,
strategies by their plain names. A library for every layer (alerts, prices, the PDF, the planning notes); the
templates reach the same functions as filters through workloads.templatetags.units."""

from __future__ import annotations

import math

from engine.core import run_settings
from engine.core.probes import KIND_NAMES


def strategy(identifier: str) -> str:
    """A strategy's name for people ("Search the chunks"); the identifiers stay in the API, the JSON and the CSV."""
    return run_settings.name(identifier)


def strategies(identifiers) -> str:
    """Strategies' names for people, listed: "Search the chunks, Ask every chunk"."""
    return ", ".join(run_settings.name(i) for i in identifiers)


_FLOP_UNITS = ("FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP", "ZFLOP")


def dollars(value: float | None, missing: str = "not priced") -> str:
    """$1,234.56 for large sums, three significant figures below a dollar ($0.000123); never $0 for None."""
    if value is None:
        return missing
    value = float(value)
    if value == 0:
        return "$0"
    sign = "-" if value < 0 else ""
    value = abs(value)
    if value >= 1:
        return f"{sign}${value:,.2f}"
    decimals = max(2, 2 - math.floor(math.log10(value)))
    text = f"{value:.{decimals}f}".rstrip("0")
    if len(text.partition(".")[2]) < 2:
        text = f"{value:.2f}"
    return f"{sign}${text}"


def flops(value: float | None) -> str:
    """1.2e12 -> "1.2 TFLOP": three significant figures and a prefix in steps of a thousand."""
    if value is None:
        return "—"
    value = float(value)
    if value == 0:
        return "0 FLOP"
    step = min(max(int(math.floor(math.log10(abs(value)) / 3)), 0), len(_FLOP_UNITS) - 1)
    scaled = float(f"{value / 1000 ** step:.3g}")
    if abs(scaled) >= 1000 and step + 1 < len(_FLOP_UNITS):  # 999.95 rounds up into the next unit
        step, scaled = step + 1, scaled / 1000
    number = f"{scaled:.3g}" if abs(scaled) < 1000 else f"{scaled:,.0f}"  # past the last prefix
    return f"{number} {_FLOP_UNITS[step]}"


def percent(value: float | None) -> str:
    """A fraction as a percentage with one decimal where it matters: 2/3 -> "66.7%"."""
    if value is None:
        return "—"
    text = f"{float(value) * 100:.1f}".removesuffix(".0")
    return f"{text}%"


def _three_digits(value: float) -> str:
    """Three significant digits, never in e-notation: 0.00123 -> "0.00123", 12.34 -> "12.3", 1234.5 -> "1,234"."""
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{float(f'{value:.3g}'):f}".rstrip("0").rstrip(".")


def seconds(value: float | None) -> str:
    """Device time in the unit that reads best; a value that rounds up to the next unit is shown in it."""
    if value is None:
        return "—"
    value = float(value)
    if value < 0.9995:  # 0.9996 s is "1 s", not "1e+03 ms"
        return f"{_three_digits(value * 1000)} ms"
    if value < 119.95:
        return f"{_three_digits(value)} s"
    if value < 7197:
        return f"{_three_digits(value / 60)} min"
    return f"{_three_digits(value / 3600)} h"


def signed(value: float | None, decimals: int = 1) -> str:
    """A change with its sign: +10.0, -17.5."""
    if value is None:
        return "—"
    return f"{float(value):+.{int(decimals)}f}"


def count_of(value: float, unit: str) -> str:
    """A number of units of work in words: "1 contract", "40 contracts", "2.5 thousand lines", "1,200 tickets".

    Below one, three significant digits: a 3-line codebase is "0.003 thousand lines", not "0".
    """
    value = float(value)
    number = _three_digits(value) if 0 < abs(value) < 1 else f"{value:,.2f}".rstrip("0").rstrip(".")
    plural = number != "1" and not unit.endswith("s")  # "thousand lines" is plural already
    return f"{number} {unit}{'s' if plural else ''}"


def kind(stored: str) -> str:
    """A probe's kind as a manager reads it: "lookup", "join", "count", "absent" (engine.core.probes.KIND_NAMES)."""
    return KIND_NAMES.get(stored, stored)
