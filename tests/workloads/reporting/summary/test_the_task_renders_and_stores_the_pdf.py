"""The export task, in a real Celery worker, renders and stores the PDF; it claims its row once and records failures."""

import io
import socket
import subprocess

import pypdfium2 as pdfium
import pytest
from django.urls import reverse
from django.utils import timezone

from tests.workloads.live import wait_for
from tests.workloads.reporting.summary.conftest import make_run, pdf_text
from workloads.models import ComparisonRun, Summary
from workloads.reporting.recommendation import decision
from workloads.reporting.summary.pdf_exports import request_summary
from workloads.tasks import export_summary
from workloads.workers import leases


def _finished(summary: Summary) -> Summary | None:
    summary.refresh_from_db()
    return summary if summary.status in (Summary.Status.DONE, Summary.Status.FAILED) else None


@pytest.mark.worker
def test_a_worker_renders_each_export_and_the_download_serves_the_newest(celery_worker, alice_client, alice,
                                                                         this_quarter):
    first = request_summary(this_quarter, alice)
    wait_for(lambda: _finished(first), 240, "the first summary", every=0.5)
    assert first.status == Summary.Status.DONE, first.error or celery_worker.read_text()[-3000:]
    pdf = bytes(first.pdf)
    assert first.pages == len(pdfium.PdfDocument(io.BytesIO(pdf))) >= 1 and first.finished_at is not None
    assert decision(this_quarter) in pdf_text(pdf)

    # Exported again (after a re-price, say): a new row, and the download serves it.
    second = request_summary(this_quarter, alice)
    wait_for(lambda: _finished(second), 240, "the second summary", every=0.5)
    assert second.status == Summary.Status.DONE and second.pk != first.pk
    response = alice_client.get(reverse("summary_download", args=[this_quarter.pk]))
    assert response.status_code == 200 and response.content == bytes(second.pdf)


def test_a_summary_that_is_not_queued_is_left_alone(this_quarter):
    for status in (Summary.Status.RUNNING, Summary.Status.DONE, Summary.Status.FAILED):
        summary = Summary.objects.create(run=this_quarter, status=status)
        export_summary(summary.pk)
        summary.refresh_from_db()
        assert summary.status == status and summary.pdf is None and summary.finished_at is None


def test_a_summary_whose_worker_died_is_taken_over_and_rendered_once(this_quarter):
    # Its holder was a process of this machine that has ended: a pool child killed mid-render. Before summaries held
    # a lease, the next delivery said "not queued: nothing to do" and the summary stayed running for hours.
    dead = subprocess.Popen(["true"])
    dead.wait()
    summary = Summary.objects.create(run=this_quarter, status=Summary.Status.RUNNING, started_at=timezone.now(),
                                     claimed_by=f"{socket.gethostname()}:{dead.pid}", heartbeat_at=timezone.now())

    export_summary(summary.pk)
    export_summary(summary.pk)  # delivered once more: done already, nothing to do

    summary.refresh_from_db()
    assert summary.status == Summary.Status.DONE and summary.takeovers == 1
    assert summary.claimed_by == leases.holder() and summary.pages >= 1
    assert decision(this_quarter) in pdf_text(bytes(summary.pdf))


def test_a_run_that_cannot_be_summarised_fails_the_summary_with_the_reason(workload):
    # request_summary refuses such runs; a row made another way (the admin) still fails cleanly.
    run = make_run(workload, status=ComparisonRun.Status.CANCELLED)
    summary = Summary.objects.create(run=run)

    export_summary(summary.pk)

    summary.refresh_from_db()
    assert summary.status == Summary.Status.FAILED and summary.started_at <= summary.finished_at
    assert summary.error == f"run {run.pk} is cancelled: only a succeeded run can be summarised"
    assert summary.pdf is None
