"""Runs as CSV (one row per run and strategy, for spreadsheets) and as JSON (everything a run holds).

Shared by the API and the HTML pages, so that both download the same bytes.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import IO

from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.http import content_disposition_header

from workloads.comparisons.starting import SETTINGS
from workloads.models import ApiPrice, ComparisonRun, Document, GpuPrice, StrategyResult, Workload

COLUMNS = [
    "run_id", "created_at", "trigger", "period", "status", "workload", "device", "model", "units_of_work",
    "strategy", "mode", "refused",
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
        "run_id": run.pk, "created_at": run.created_at, "trigger": run.trigger, "period": run.period,
        "status": run.status, "workload": run.workload.name,
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


def history_csv(workload: Workload) -> str:
    """Every run of the workload, oldest first as in history_json, one row per run and strategy."""
    return runs_csv(workload.runs.order_by("created_at", "pk"))


def run_csv(run: ComparisonRun) -> str:
    """One run as CSV: the runs CSV's columns, one row per strategy."""
    return runs_csv(ComparisonRun.objects.filter(pk=run.pk))


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def _number(value) -> float | None:
    # Prices are Decimals in the database; a JSON reader wants numbers, not strings.
    return float(value) if value is not None else None


def _gpu_price(entry: GpuPrice | None) -> dict | None:
    if entry is None:
        return None
    return {"id": entry.pk, "device_class": entry.device_class, "per_hour": _number(entry.per_hour),
            "effective_from": _iso(entry.effective_from), "source": entry.source}


def _api_price(entry: ApiPrice | None) -> dict | None:
    if entry is None:
        return None
    return {"id": entry.pk, "provider": entry.provider, "model": entry.model,
            "input_per_mtok": _number(entry.input_per_mtok),
            "cached_input_per_mtok": _number(entry.cached_input_per_mtok),
            "output_per_mtok": _number(entry.output_per_mtok), "effective_from": _iso(entry.effective_from),
            "source": entry.source}


def _result_record(result: StrategyResult, answers: bool) -> dict:
    record = _result_cells(result)
    if answers:
        record["answers"] = [{"probe_id": a.probe_id, "question": a.question, "expected": a.expected, "kind": a.kind,
                              "output": a.output, "correct": a.correct} for a in result.answers.all()]
    return record


def run_record(run: ComparisonRun, *, answers: bool) -> dict:
    """Everything the run holds, as JSON-ready values: ISO dates, numbers, and None where it was not priced."""
    return {
        "id": run.pk, "workload_id": run.workload_id, "trigger": run.trigger, "period": run.period,
        "period_start": _iso(run.period_start), "status": run.status, "error": run.error,
        "created_by": run.created_by.get_username() if run.created_by else None,
        "created_at": _iso(run.created_at), "started_at": _iso(run.started_at),
        "finished_at": _iso(run.finished_at), "priced_at": _iso(run.priced_at),
        "device": run.device, "model": run.model, "versions": run.versions,
        "strategies": run.strategies, "settings": {name: getattr(run, name) for name in SETTINGS},
        "units_of_work": run.units_of_work, "documents": run.documents,
        "prices": {"gpu": _gpu_price(run.gpu_price), "api": _api_price(run.api_price)},
        "pricing_error": run.pricing_error,
        "results": [_result_record(result, answers) for result in run.results.all()],
        "previous_run": run.previous_run_id, "changes": run.changes,
        "alerts": [{"kind": a.kind, "strategy": a.strategy, "message": a.message, "previous_run": a.previous_run_id}
                   for a in run.alerts.all()],
    }


def workload_record(workload: Workload) -> dict:
    return {
        "id": workload.pk, "organisation": workload.organisation.name, "name": workload.name, "kind": workload.kind,
        "unit": workload.unit, "description": workload.description, "expected_volume": workload.expected_volume,
        "target_model": workload.target_model, "api_provider": workload.api_provider, "api_model": workload.api_model,
        "schedule": workload.schedule, "created_at": _iso(workload.created_at),
    }


def _for_export(runs: QuerySet, answers: bool) -> QuerySet:
    return runs.select_related("workload__organisation", "created_by", "gpu_price", "api_price").prefetch_related(
        "results__answers" if answers else "results", "alerts")


def run_json(run: ComparisonRun) -> str:
    """The run with its workload, every strategy's results and every probe's answer."""
    run = _for_export(ComparisonRun.objects.filter(pk=run.pk), answers=True).get()
    return json.dumps({"workload": workload_record(run.workload), "run": run_record(run, answers=True)}, indent=2)


def history_json(workload: Workload) -> str:
    """The workload and every run of it, oldest first, in run_json's shape less the probe answers."""
    runs = _for_export(workload.runs.order_by("created_at", "pk"), answers=False)
    return json.dumps({"workload": workload_record(workload), "runs": [run_record(r, answers=False) for r in runs]},
                      indent=2)


def document_text_name(document: Document) -> str:
    """A document's text saves as its name's stem with .txt: "contracts/lease.docx" saves as "lease.txt"."""
    return f"{PurePosixPath(document.name).stem or 'document'}.txt"


def download(text: str, content_type: str, filename: str) -> HttpResponse:
    """The text as a file to save, not a page to show; any name (quotes, accents) is encoded for the header."""
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=filename)
    return response
