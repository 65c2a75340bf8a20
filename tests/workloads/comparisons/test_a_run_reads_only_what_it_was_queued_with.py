"""A run reads exactly the documents and probes it was queued with (issue 40: a run queued with one document read
two): one added while it waited is not read, one replaced or edited meanwhile refuses it before the model loads, and
the run page lists what it reads."""

import pytest

from workloads.comparisons.starting import retry_run, start_run
from workloads.models import ComparisonRun, Document, Probe, Upload, UploadFile
from workloads.tasks import run_comparison


def _queued(workload, user, capture):
    with capture(execute=False):
        return start_run(workload, user, ["chunked"], chunk_tokens=64, chunk_overlap=8)


def _failed(run) -> ComparisonRun:
    run_comparison(run.pk)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.FAILED, (run.status, run.error)
    assert run.device == "" and not run.engine_calls.exists()  # refused before the model was loaded
    return run


@pytest.mark.model
def test_a_document_and_a_probe_added_while_it_waited_are_not_read(
        ready_workload, alice, django_capture_on_commit_callbacks):
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    Document.objects.create(workload=ready_workload, name="annex.txt", text="The annex sets a fee of 10 euros.\n",
                            tokens=9, lines=1, size_bytes=34)
    Probe.objects.create(workload=ready_workload, question="What fee does the annex set?", answer="10 euros")
    run_comparison(run.pk)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    assert [d["name"] for d in run.documents] == ["agreement.txt"]
    assert [d["name"] for d in run.report["documents"]] == ["agreement.txt"]
    asked = {p["question"] for p in run.report["strategies"]["chunked"]["probes"]}
    assert asked == {"What is the notice period?", "What is the governing law?"}
    # Every call it made was kept as it completed, once: what a takeover would continue from.
    assert run.engine_calls.count() == run.report["strategies"]["chunked"]["calls"] == run.report["calls"]["made"]


def test_it_refuses_a_run_whose_document_was_replaced_while_it_waited(
        ready_workload, alice, django_capture_on_commit_callbacks):
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    # What an upload replacing documents of the same name does: the document keeps its row and takes a new origin.
    upload = Upload.objects.create(workload=ready_workload, created_by=alice, replace_same_names=True)
    newer = UploadFile.objects.create(upload=upload, name="agreement.txt", size_bytes=20)
    Document.objects.filter(workload=ready_workload).update(origin=newer, text="The notice period is 30 days.")
    run = _failed(run)
    assert "1 document it was queued with was replaced by a new version while it waited (agreement.txt)" in run.error


def test_it_refuses_a_run_whose_probe_was_edited_while_it_waited(
        ready_workload, alice, django_capture_on_commit_callbacks):
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    ready_workload.probes.filter(question="What is the notice period?").update(answer="30 days")
    run = _failed(run)
    assert '1 probe it was queued with was edited while it waited ("What is the notice period?")' in run.error
    assert "governing law" not in run.error


def test_the_run_page_lists_what_it_reads(ready_workload, alice, alice_client, django_capture_on_commit_callbacks):
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    Document.objects.create(workload=ready_workload, name="annex.txt", text="The annex.\n", tokens=4, lines=1,
                            size_bytes=11)
    page = alice_client.get(f"/runs/{run.pk}/").content.decode()
    listed = page[page.index("data-inputs"):page.index("</details>", page.index("data-inputs"))]
    assert "Reads the 1 document and 2 probes it was queued with, no others" in " ".join(listed.split())
    assert "agreement.txt" in listed and "What is the governing law?" in listed and "annex.txt" not in listed


@pytest.mark.model
def test_a_failed_run_retried_makes_only_the_calls_it_never_made(
        ready_workload, alice, django_capture_on_commit_callbacks):
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    run_comparison(run.pk)
    run.refresh_from_db()
    made = run.report["calls"]["made"]
    # As if it had stopped at the time limit after all but its last two calls.
    run.engine_calls.filter(pk__in=run.engine_calls.order_by("-pk").values("pk")[:2]).delete()
    ComparisonRun.objects.filter(pk=run.pk).update(status=ComparisonRun.Status.FAILED, error="stopped")
    with django_capture_on_commit_callbacks(execute=False):
        assert retry_run(run)
    run_comparison(run.pk)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    assert run.report["calls"] == {"made": 2, "reused": made - 2} and run.engine_calls.count() == made
