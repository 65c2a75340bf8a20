"""An upload whose every file was skipped shows a warning status, "nothing kept", on its page and in the workload
page's list of uploads, not a green "done"; an upload that kept a file still shows "done"."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Upload, UploadItem


def upload_with(workload, alice, *kept: bool) -> Upload:
    upload = Upload.objects.create(workload=workload, created_by=alice, status=Upload.Status.DONE)
    for i, keep in enumerate(kept):
        UploadItem.objects.create(upload=upload, name=f"file-{i}.txt", kept=keep,
                                  detail="kept" if keep else "skipped: not a text format")
    return upload


def test_every_file_skipped_shows_nothing_kept_with_a_warning(alice_client, alice, workload):
    upload = upload_with(workload, alice, False, False)

    page = html(alice_client.get(reverse("upload_detail", args=[upload.pk])))
    listed = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    badge = '<span class="status status-nothing-kept">nothing kept</span>'
    assert badge in page and badge in listed
    assert "status-done" not in page and "status-done" not in listed
    assert "Every file was skipped, so the workload gained no document: the reasons are below." in page
    upload.refresh_from_db()
    assert upload.status == Upload.Status.DONE  # stored as it was: the API still says done


def test_an_upload_that_kept_a_file_shows_done(alice_client, alice, workload):
    upload = upload_with(workload, alice, False, True)

    page = html(alice_client.get(reverse("upload_detail", args=[upload.pk])))

    assert '<span class="status status-done">done</span>' in page and "nothing kept" not in page
    assert "Every file was skipped" not in page
