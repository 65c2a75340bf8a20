"""Runs in two quarters with chosen device seconds, accuracy and gates, priced at Acme's $0.10 an hour CPU."""

import datetime as dt

from tests.workloads.pages.conftest import answer, make_run, report, strategy
from workloads.models import ComparisonRun

Q3 = dt.datetime(2026, 8, 3, 9, tzinfo=dt.UTC)
Q4 = dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC)
Q1 = dt.datetime(2027, 2, 1, 9, tzinfo=dt.UTC)


def measured(probe, seconds: float, accuracy: float = 1.0, gated: bool = False, rate: float | None = None) -> dict:
    """A strategy's report entry; `rate`, its median seconds per TFLOP, where the test needs one."""
    entry = strategy("dense", seconds=seconds, accuracy=accuracy, gated=gated,
                     answers=[answer(probe, "90 days", accuracy >= 0.5)])
    if rate is not None:
        entry["rate"] = {"median": rate, "min": rate, "max": rate}
    return entry


def run_at(workload, probe, when: dt.datetime, device: str = "cpu", units_of_work: float = 4,
           **strategies: dict) -> ComparisonRun:
    """A succeeded, priced run queued at `when`; each strategy is given as measured()'s keyword arguments."""
    the_report = report({name: measured(probe, **kwargs) for name, kwargs in strategies.items()}, device)
    return make_run(workload, the_report, created_at=when, units_of_work=units_of_work)

