"""The workload page lists its recent uploads, each with the status the pages show ("nothing kept" for an upload
that skipped every file), in as many queries for five uploads as for one: asking each upload whether it kept
anything was one query per upload."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from tests.workloads.pages.query_counts import grown, queries
from workloads.models import Upload, UploadItem


def _upload(workload, alice, kept: bool) -> Upload:
    upload = Upload.objects.create(workload=workload, created_by=alice, status=Upload.Status.DONE, files_done=1)
    UploadItem.objects.create(upload=upload, name="notes.txt", kept=kept, detail="kept" if kept else "empty")
    return upload


def test_five_uploads_take_the_queries_one_does_and_each_shows_its_status(alice_client, workload, alice):
    url = reverse("workload_detail", args=[workload.pk])
    _upload(workload, alice, kept=True)
    one = queries(alice_client, url)
    for kept in (False, True, False, True):
        _upload(workload, alice, kept)
    five = queries(alice_client, url)

    assert len(five) == len(one), grown(one, five)
    page = html(alice_client.get(url))
    assert page.count("nothing kept") == 2 and page.count("Upload of ") == 5
