"""When only the worker's pool child is killed mid-extraction, Celery delivers the message again at once, and that
delivery takes the upload over, since its holder's process is gone, rather than saying "already handled" and
leaving it "running" for hours as it did."""

import os
import signal
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.workloads.live import wait_for
from workloads.documents.intake import accept_upload
from workloads.models import Upload

pytestmark = pytest.mark.worker

FILES = 6
TEXT = "".join(f"Clause {n}: the supplier shall deliver the goods within {n % 90} days of the order.\n"
               for n in range(4_000))


def test_a_redelivery_takes_over_from_a_killed_pool_child(workers, workload, alice):
    _, log, _ = workers.start()
    upload = accept_upload(workload, alice, [SimpleUploadedFile(f"part-{n}.txt", f"Part {n}.\n{TEXT}".encode())
                                             for n in range(FILES)])

    def midway():
        upload.refresh_from_db()
        return upload.status == Upload.Status.RUNNING and 1 <= upload.files_done < FILES

    wait_for(midway, 120, "extraction to be part-way", every=0.05)
    child = upload.claimed_by
    os.kill(int(child.rpartition(":")[2]), signal.SIGKILL)
    killed_at = time.monotonic()

    wait_for(lambda: Upload.objects.get(pk=upload.pk).claimed_by != child, 30, "a new child to take it over",
             every=0.1)
    print(f"upload taken over {time.monotonic() - killed_at:.1f} s after its pool child was killed")
    wait_for(lambda: Upload.objects.get(pk=upload.pk).finished, 120, "the upload to end", every=0.2)
    upload.refresh_from_db()
    assert upload.status == Upload.Status.DONE, upload.error or log.read_text()[-3000:]
    assert upload.takeovers == 1
    assert workload.documents.count() == FILES
