"""A task claims its row with a conditional UPDATE: delivered twice, it does the work once."""

from django.core.files.uploadedfile import SimpleUploadedFile

from workloads.documents.intake import store_upload
from workloads.models import ComparisonRun, Document, Upload
from workloads.tasks import extract_upload, run_comparison


def test_an_upload_delivered_twice_is_extracted_once(workload, alice):
    upload = store_upload(workload, alice, [SimpleUploadedFile("terms.txt", b"The notice period is 90 days.\n")])
    extract_upload(upload.pk)
    extract_upload(upload.pk)
    upload.refresh_from_db()
    assert upload.status == Upload.Status.DONE and upload.started_at <= upload.finished_at  # stamped when claimed
    assert Document.objects.filter(workload=workload).count() == 1
    assert upload.items.count() == 1


def test_a_run_that_is_not_queued_is_left_alone(workload, alice):
    for status in ("running", "cancelled", "succeeded"):
        run = ComparisonRun.objects.create(workload=workload, created_by=alice, strategies=["chunked"],
                                           model=workload.target_model, units_of_work=1, status=status)
        run_comparison(run.pk)
        run.refresh_from_db()
        assert run.status == status
        assert run.started_at is None and run.results.count() == 0
