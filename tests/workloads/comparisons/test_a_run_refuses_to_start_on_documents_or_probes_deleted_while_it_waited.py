"""A run reads the documents and probes it was queued with: one deleted while the run waited makes the worker refuse
it when it claims it, saying which, before any model is loaded. It never "succeeds" on an emptied workload."""

from workloads.comparisons.starting import start_run
from workloads.models import ComparisonRun, Document
from workloads.tasks import run_comparison


def _queued(workload, user, capture):
    with capture(execute=False):
        return start_run(workload, user, ["chunked"], chunk_tokens=64, chunk_overlap=8)


def _refused(run) -> ComparisonRun:
    run_comparison(run.pk)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.FAILED, (run.status, run.error)
    assert not run.results.exists() and run.progress_done == 0 and run.finished_at is not None
    return run


def test_it_refuses_a_run_whose_only_document_was_deleted_while_it_waited(
        ready_workload, alice, django_capture_on_commit_callbacks):
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    Document.objects.get(workload=ready_workload).delete()
    run = _refused(run)
    assert "agreement.txt" in run.error and "deleted" in run.error and "start the comparison again" in run.error.lower()
    assert run.device == ""  # refused before the model was loaded and the device known: no device time spent


def test_it_refuses_a_run_that_lost_one_of_its_documents(ready_workload, alice, django_capture_on_commit_callbacks):
    Document.objects.create(workload=ready_workload, name="annex.txt", text="The annex.\n", tokens=4, lines=1,
                            size_bytes=11)
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    Document.objects.get(name="annex.txt").delete()
    run = _refused(run)
    assert "1 document" in run.error and "annex.txt" in run.error and "agreement.txt" not in run.error


def test_it_refuses_a_run_one_of_whose_probes_was_deleted_while_it_waited(
        ready_workload, alice, django_capture_on_commit_callbacks):
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    ready_workload.probes.get(question="What is the governing law?").delete()
    run = _refused(run)
    assert "1 probe" in run.error and "What is the governing law?" in run.error
    assert "What is the notice period?" not in run.error


def test_it_refuses_a_run_queued_before_runs_kept_their_inputs_once_the_workload_has_no_documents(
        ready_workload, alice, django_capture_on_commit_callbacks):
    run = _queued(ready_workload, alice, django_capture_on_commit_callbacks)
    ComparisonRun.objects.filter(pk=run.pk).update(queued_with=None)  # as rows queued before the migration
    ready_workload.documents.all().delete()
    run = _refused(run)
    assert "the workload has no documents left" in run.error
