"""Runs as CSV: one row per run and strategy, for spreadsheets. Shared by the API and the HTML pages."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import IO

from django.db.models import QuerySet

from workloads.models import ComparisonRun, StrategyResult

COLUMNS = [
    "run_id", "created_at", "status", "workload", "device", "model", "units_of_work", "strategy", "mode", "refused",
    "tokens_in", "tokens_out", "calls", "seconds", "wall_seconds", "peak_memory_bytes",
    "flops_linear", "flops_attention", "flops_indexer", "flops_total", "bytes_total",
    "accuracy", "n_probes", "gated", "top1_agreement", "index_overlap",
    "device_dollars", "api_dollars", "unit_device_dollars", "unit_api_dollars",
    "gpu_price_per_hour", "gpu_price_effective_from", "gpu_price_source",
    "api_price_input_per_mtok", "api_price_output_per_mtok", "api_price_effective_from", "api_price_source",
    "pricing_error", "error",
]
_RESULT_COLUMNS = COLUMNS[COLUMNS.index("strategy"):COLUMNS.index("gpu_price_per_hour")]

# A spreadsheet runs a cell that opens with one of these as a formula (OWASP "CSV injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value) -> object:
    """The value as a CSV cell: text that a spreadsheet would run as a formula gets a leading quote."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _run_cells(run: ComparisonRun) -> dict:
    gpu, api = run.gpu_price, run.api_price
    return {
        "run_id": run.pk, "created_at": run.created_at, "status": run.status, "workload": run.workload.name,
        "device": run.device, "model": run.model, "units_of_work": run.units_of_work,
        "gpu_price_per_hour": gpu.per_hour if gpu else None,
        "gpu_price_effective_from": gpu.effective_from if gpu else None,
        "gpu_price_source": gpu.source if gpu else None,
        "api_price_input_per_mtok": api.input_per_mtok if api else None,
        "api_price_output_per_mtok": api.output_per_mtok if api else None,
        "api_price_effective_from": api.effective_from if api else None,
        "api_price_source": api.source if api else None,
        "pricing_error": run.pricing_error, "error": run.error,
    }


def _result_cells(result: StrategyResult) -> dict:
    return {name: getattr(result, name) for name in _RESULT_COLUMNS}


def write_runs_csv(out: IO[str], runs: Iterable[ComparisonRun]) -> None:
    """Write the header and one row per run × strategy; a run without results (queued, failed) gets one row."""
    if isinstance(runs, QuerySet):
        runs = runs.select_related("workload", "gpu_price", "api_price").prefetch_related("results")
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for run in runs:
        cells = _run_cells(run)
        for result in run.results.all() or [None]:
            row = cells | (_result_cells(result) if result else {})
            writer.writerow([safe_cell(row.get(name)) for name in COLUMNS])


def runs_csv(runs: Iterable[ComparisonRun]) -> str:
    """The runs as CSV text (see write_runs_csv)."""
    out = io.StringIO()
    write_runs_csv(out, runs)
    return out.getvalue()
