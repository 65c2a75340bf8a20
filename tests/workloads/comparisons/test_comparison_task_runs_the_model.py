"""The comparison task runs the default model for real and stores, prices and describes what it measured."""

import hashlib

import pytest

from tests.workloads.conftest import CONTRACT
from workloads.comparisons.starting import start_run
from workloads.models import ComparisonRun, Document, GpuPrice
from workloads.tasks import run_comparison

pytestmark = pytest.mark.model


def test_it_stores_each_strategys_measurements_as_rows(ready_workload, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        run = start_run(ready_workload, alice, ["chunked", "full_index_share"], chunk_tokens=64, chunk_overlap=8)
    run_comparison(run.pk)
    run.refresh_from_db()

    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    assert not run.summaries.exists()  # only scheduled runs export a PDF by themselves
    assert run.device.startswith("cpu") and run.versions["torch"] and run.versions["transformers"]
    # It keeps the documents it read, so a later run can say what changed in them.
    assert run.documents == [{"name": "agreement.txt", "tokens": 60,
                              "sha256": hashlib.sha256(CONTRACT.encode()).hexdigest()}]
    assert run.progress_done == run.progress_total > 0
    results = {r.strategy: r for r in run.results.all()}
    assert set(results) == {"chunked", "full_index_share"}
    for r in results.values():
        assert r.calls > 0 and r.tokens_in > 0 and r.seconds > 0
        assert r.flops_total == pytest.approx(r.flops_linear + r.flops_attention + r.flops_indexer)
        assert r.answers.count() == 2
        assert {a.probe.question for a in r.answers.all()} == {
            "What is the notice period?", "What is the governing law?"
        }
    # Chunked makes one call per chunk and probe, plus one reduce per probe; full context one per probe.
    assert results["full_index_share"].calls == 2
    assert results["chunked"].calls > 2
    assert results["full_index_share"].flops_indexer > 0 and results["chunked"].flops_indexer == 0
    assert run.report["strategies"]["chunked"]["calls"] == results["chunked"].calls

    # Priced at the CPU's entry in Acme's price book, as measured: seconds x $/h and tokens x $/M.
    full = results["full_index_share"]
    assert run.gpu_price.device_class == "cpu" and run.pricing_error == ""
    assert full.device_dollars == pytest.approx(full.seconds / 3600 * 0.10)
    assert full.api_dollars == pytest.approx((full.tokens_in * 0.10 + full.tokens_out * 0.30) / 1e6)
    assert full.unit_device_dollars == pytest.approx(full.device_dollars / 1)


def test_its_units_of_work_are_the_documents_it_was_queued_with_not_one_added_while_it_waited(
        ready_workload, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        run = start_run(ready_workload, alice, ["full_index_share"])
    assert run.units_of_work == 1
    addendum = "Addendum: the notice period is now 60 days.\n"  # an upload that finished while the run waited
    Document.objects.create(workload=ready_workload, name="addendum.txt", text=addendum, tokens=12, lines=1,
                            size_bytes=len(addendum))
    run_comparison(run.pk)
    run.refresh_from_db()

    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    assert run.units_of_work == 1 and [d["name"] for d in run.report["documents"]] == ["agreement.txt"]
    full = run.results.get()
    assert full.unit_device_dollars == pytest.approx(full.device_dollars / 1)


def test_a_device_missing_from_the_price_book_fails_before_any_inference(
        ready_workload, alice, django_capture_on_commit_callbacks):
    GpuPrice.objects.filter(device_class="cpu").delete()
    with django_capture_on_commit_callbacks(execute=False):
        run = start_run(ready_workload, alice, ["full_dense"])
    run_comparison(run.pk)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.FAILED
    assert "no GPU price covers the device" in run.error and "H200" in run.error
    assert run.progress_done == 0 and not run.results.exists()
