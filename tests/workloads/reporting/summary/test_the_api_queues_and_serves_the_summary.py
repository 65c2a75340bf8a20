"""POST /api/runs/{id}/summary queues an export (202); GET /api/runs/{id}/summary.pdf serves the newest done one."""

from tests.workloads.reporting.summary.conftest import done_summary, make_run
from workloads.models import ComparisonRun, Summary


def test_post_queues_a_summary_and_answers_202(as_alice, alice, this_quarter, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        response = as_alice.post(f"/runs/{this_quarter.pk}/summary")

    assert response.status_code == 202
    summary = Summary.objects.get(run=this_quarter)
    assert response.json() == {"id": summary.pk, "status": "queued"}
    assert summary.requested_by == alice and len(callbacks) == 1


def test_post_for_a_run_that_did_not_succeed_is_409(as_alice, workload):
    run = make_run(workload, status=ComparisonRun.Status.QUEUED)

    response = as_alice.post(f"/runs/{run.pk}/summary")

    assert response.status_code == 409
    assert response.json() == {"detail": f"run {run.pk} is queued: only a succeeded run has a summary to export"}
    assert not Summary.objects.exists()


def test_get_pdf_is_404_until_done_then_serves_the_newest(as_alice, this_quarter):
    Summary.objects.create(run=this_quarter)
    response = as_alice.get(f"/runs/{this_quarter.pk}/summary.pdf")
    assert response.status_code == 404
    assert response.json()["detail"].startswith(f"run {this_quarter.pk} has no finished PDF summary yet")

    done_summary(this_quarter, b"%PDF-1.7 older")
    done_summary(this_quarter, b"%PDF-1.7 newest")
    response = as_alice.get(f"/runs/{this_quarter.pk}/summary.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content == b"%PDF-1.7 newest"
    filename = f"costplanner-supplier-contracts-2027-Q1-run{this_quarter.pk}.pdf"
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'


def test_another_organisation_and_no_token_get_nothing(as_charlie, client, this_quarter):
    done_summary(this_quarter)

    assert as_charlie.post(f"/runs/{this_quarter.pk}/summary").status_code == 404
    assert as_charlie.get(f"/runs/{this_quarter.pk}/summary.pdf").status_code == 404
    assert client.post(f"/api/runs/{this_quarter.pk}/summary").status_code == 401
    assert client.get(f"/api/runs/{this_quarter.pk}/summary.pdf").status_code == 401
    assert this_quarter.summaries.count() == 1

