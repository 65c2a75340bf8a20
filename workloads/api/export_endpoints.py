"""Downloads: a run, and a workload's history, as CSV and JSON files, and a document's text (the same bytes as the
pages give)."""

from django.shortcuts import get_object_or_404
from ninja import Router

from workloads.api.error_responses import ERRORS
from workloads.api.run_endpoints import export_runs, run_of
from workloads.api.workload_endpoints import workload_of
from workloads.reporting import data_exports

router = Router(tags=["exports"])


def _file(content_type: str, description: str, schema: dict | None = None) -> dict:
    # These return files (CSV text, or a JSON document to save): say so in the OpenAPI document.
    return {"responses": {200: {"description": description,
                                "content": {content_type: {"schema": schema or {"type": "string"}}}}}}


def _json_document(**parts: dict) -> dict:
    return {"type": "object", "properties": parts, "required": list(parts)}


_RECORD = {"type": "object"}  # a workload or run record: see workloads/reporting/data_exports.py


@router.get("/runs/{run_id}/export.csv", response={200: None, **ERRORS},
            summary="A run as CSV: the runs CSV's columns, one row per strategy",
            openapi_extra=_file("text/csv", "CSV, one row per strategy"))
def run_csv(request, run_id: int):
    run = run_of(request, run_id)
    return data_exports.download(data_exports.run_csv(run), "text/csv", f"run-{run.pk}.csv")


@router.get("/runs/{run_id}/export.json", response={200: None, **ERRORS},
            summary="A run as JSON: its workload, settings, prices used, each strategy's results with unit costs, "
                    "each probe's answers, the changes since the previous period and the alerts",
            openapi_extra=_file("application/json", "JSON: {workload, run}",
                                _json_document(workload=_RECORD, run=_RECORD)))
def run_json(request, run_id: int):
    run = run_of(request, run_id)
    return data_exports.download(data_exports.run_json(run), "application/json", f"run-{run.pk}.json")


@router.get("/workloads/{workload_id}/history.json", response={200: None, **ERRORS},
            summary="A workload's history as JSON: the workload and every run, oldest first, without probe answers",
            openapi_extra=_file("application/json", "JSON: {workload, runs}",
                                _json_document(workload=_RECORD, runs={"type": "array", "items": _RECORD})))
def history_json(request, workload_id: int):
    workload = workload_of(request, workload_id)
    return data_exports.download(data_exports.history_json(workload), "application/json",
                                 f"workload-{workload.pk}-history.json")


# The history as CSV is the runs CSV; this path names it alongside history.json.
router.add_api_operation("/workloads/{workload_id}/history.csv", ["GET"], export_runs, response={200: None, **ERRORS},
                         operation_id="workload_history_csv",
                         summary="A workload's history as CSV: the runs CSV, one row per run and strategy",
                         openapi_extra=_file("text/csv", "CSV, one row per run × strategy"))


@router.get("/workloads/{workload_id}/documents/{document_id}/text", response={200: None, **ERRORS},
            summary="A document's text: what was read from its file, which every strategy is given",
            openapi_extra=_file("text/plain", "the text, UTF-8"))
def document_text(request, workload_id: int, document_id: int):
    document = get_object_or_404(workload_of(request, workload_id).documents, pk=document_id)
    return data_exports.download(document.text, "text/plain", data_exports.document_text_name(document))
