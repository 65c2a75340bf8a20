"""An upload whose worker was killed with SIGKILL mid-extraction is taken over by the next worker to start, within
the lease's bound, and ends done with each file kept once; today it stayed "running" for hours."""

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.workloads.live import wait_for
from workloads.documents.intake import accept_upload
from workloads.models import Document, Upload

pytestmark = pytest.mark.worker

FILES = 8
# Big enough that counting its tokens takes the worker a while: the kill lands between files.
TEXT = "".join(f"Clause {n}: the supplier shall deliver the goods within {n % 90} days of the order.\n"
               for n in range(4_000))


def test_an_upload_killed_mid_extraction_is_taken_over_and_ends_once(workers, workload, alice):
    first, log, _ = workers.start()
    upload = accept_upload(workload, alice, [SimpleUploadedFile(f"part-{n}.txt", f"Part {n}.\n{TEXT}".encode()) for n in range(FILES)])

    def midway():
        upload.refresh_from_db()
        return upload.status == Upload.Status.RUNNING and 1 <= upload.files_done < FILES

    wait_for(midway, 120, "extraction to be part-way", every=0.05)
    workers.kill(first)
    killed_at = time.monotonic()
    killed_holder = upload.claimed_by

    _, log, ready_at = workers.start()

    def taken_over():
        upload.refresh_from_db()
        return upload.claimed_by != killed_holder

    wait_for(taken_over, 60, "another worker to take the upload over", every=0.2)
    takeover_s, since_kill_s = time.monotonic() - ready_at, time.monotonic() - killed_at
    wait_for(lambda: Upload.objects.get(pk=upload.pk).finished, 120, "the upload to end", every=0.2)
    ended_s = time.monotonic() - ready_at
    print(f"upload taken over {takeover_s:.1f} s, ended {ended_s:.1f} s after the new worker was ready "
          f"({since_kill_s:.1f} s from the kill to the takeover)")

    upload.refresh_from_db()
    assert upload.status == Upload.Status.DONE, upload.error or log.read_text()[-3000:]
    assert upload.takeovers == 1 and upload.files_done == FILES
    assert sorted(upload.items.values_list("name", flat=True)) == [f"part-{n}.txt" for n in range(FILES)]
    assert Document.objects.filter(workload=workload).count() == FILES
    assert takeover_s < 60
