"""Runs as CSV: one row per run and strategy, safe to open in a spreadsheet."""

import csv
import io

import pytest

from workloads.models import ComparisonRun, GpuPrice
from workloads.reporting.data_exports import COLUMNS, runs_csv, safe_cell

from ..conftest import MODEL, csv_rows


def test_it_exports_one_row_per_run_and_strategy(as_alice, workload, succeeded_run):
    response = as_alice.get(f"/workloads/{workload.pk}/runs.csv")

    rows = csv_rows(response)
    assert f'filename="workload-{workload.pk}-runs.csv"' in response["Content-Disposition"]
    assert [(r["run_id"], r["strategy"]) for r in rows] == [
        (str(succeeded_run.pk), "chunked"), (str(succeeded_run.pk), "full_index_share"),
        (str(succeeded_run.pk), "full_dense")]
    chunked = rows[0]
    assert (chunked["status"], chunked["device"], chunked["model"], chunked["tokens_in"], chunked["calls"]) == (
        "succeeded", "cpu", MODEL, "1000000", "1")
    assert float(chunked["flops_linear"]) == 1.0e12 and float(chunked["flops_attention"]) == 2.0e11
    assert float(chunked["flops_indexer"]) == 0 and float(rows[1]["flops_indexer"]) == 5.0e10
    assert float(chunked["seconds"]) == 36.0 and chunked["accuracy"] == "1.0" and chunked["gated"] == "false"
    assert float(chunked["device_dollars"]) == pytest.approx(0.001)
    assert float(chunked["unit_api_dollars"]) == pytest.approx(float(chunked["api_dollars"]) / 2)
    assert (chunked["gpu_price_source"], chunked["api_price_source"]) == ("test: a 2-core cloud VM",
                                                                          "test: an API price page")
    assert chunked["created_at"] == succeeded_run.created_at.isoformat()
    assert rows[2]["refused"] and rows[2]["device_dollars"] == "" and rows[2]["accuracy"] == ""


def test_a_run_without_results_still_gets_a_row(as_alice, workload, succeeded_run):
    failed = ComparisonRun.objects.create(workload=workload, strategies=["chunked"], model=MODEL, units_of_work=1,
                                          status=ComparisonRun.Status.FAILED, error="out of memory")

    rows = csv_rows(as_alice.get(f"/workloads/{workload.pk}/runs.csv"))

    assert (rows[-1]["run_id"], rows[-1]["status"], rows[-1]["strategy"], rows[-1]["error"]) == (
        str(failed.pk), "failed", "", "out of memory")  # the newest run, last
    assert len(rows) == 4


def test_a_workload_without_runs_exports_only_the_header(as_alice, workload):
    assert csv_rows(as_alice.get(f"/workloads/{workload.pk}/runs.csv")) == []


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://evil\",\"x\")", "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"])
def test_it_neutralises_formulas_in_user_text(as_alice, workload, succeeded_run, text):
    GpuPrice.objects.filter(pk=succeeded_run.gpu_price_id).update(source=text)
    workload.name = text
    workload.save()

    row = csv_rows(as_alice.get(f"/workloads/{workload.pk}/runs.csv"))[0]

    assert row["gpu_price_source"] == "'" + text
    assert row["workload"] == "'" + text


def test_it_leaves_numbers_and_harmless_text_alone():
    assert safe_cell(-1.5) == -1.5
    assert safe_cell("a=b") == "a=b"
    assert safe_cell(None) == ""
    assert safe_cell(True) == "true"


def test_runs_csv_is_a_plain_function_of_runs(succeeded_run):
    text = runs_csv([succeeded_run])

    assert text.splitlines()[0] == ",".join(COLUMNS)
    assert len(list(csv.reader(io.StringIO(text)))) == 4
