"""Each page chart is built once for the values it plots, then read from Django's cache.

Building a plotly figure takes tens of milliseconds of CPU, and the workload page draws four of them from every
finished run: under load that was most of a page's time. A chart is a pure function of plain values (the points of
workloads.reporting.page_charts, labels and notes included), so the cache key is a digest of those values and of the
code that draws them. A run that changes (finished, re-priced, deleted, its organisation's clock moved) gives other
values and so another key: nothing has to be invalidated, and a figure cannot outlive the data it was drawn from.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
from pathlib import Path

import plotly
from django.core.cache import cache

# The drawing code and the plotly that serialises it: a deploy that changes either draws every chart again, even
# from a cache shared between processes.
_HERE = Path(__file__).resolve().parent
CODE = hashlib.sha256(b"".join((_HERE / name).read_bytes() for name in ("page_charts.py", "chart_notes.py"))
                      + plotly.__version__.encode()).hexdigest()[:16]
# Entries never go stale (their key is their content); this only bounds how long an unused one takes room.
TIMEOUT_S = 7 * 24 * 3600


def key(name: str, inputs: tuple) -> str:
    # pickle, not repr: the same values in a fifth of the CPU (the workload page's history of 20 runs: 0.1 against
    # 0.6 ms). Unpickling gives the values back, so other values are always another key; equal values pickled
    # differently (shared or separate objects) would only build a chart again.
    digest = hashlib.sha256(pickle.dumps(inputs, protocol=5)).hexdigest()
    return f"chart:{CODE}:{name}:{digest}"


def cached(build):
    """Memoise `build(*inputs)` in Django's cache; `inputs` must be plain values that pickle whole (numbers,
    strings, datetimes, tuples and frozen dataclasses of them), never ORM objects."""

    @functools.wraps(build)
    def built(*inputs):
        name = key(build.__name__, inputs)
        chart = cache.get(name)
        if chart is None:
            chart = build(*inputs)
            cache.set(name, chart, TIMEOUT_S)
        return chart

    return built
