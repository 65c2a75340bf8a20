"""A sweep cancelled from its page while a real Celery worker asks its questions stops before the next question:
it asks no more, keeps no report, its heartbeat stops, and the worker is free for the next job at once."""

import time

import pytest
from django.urls import reverse

from tests.workloads.conftest import CONTRACT
from tests.workloads.live import wait_for
from workloads.comparisons.sweep_starting import start_sweep
from workloads.models import Document, GroupSweep, Probe

pytestmark = [pytest.mark.model, pytest.mark.worker]

QUESTIONS = [("What is the notice period?", "90 days"), ("What is the governing law?", "Ireland"),
             ("Who is the account manager of Northwind Logistics?", "Dana Reyes"),
             ("Which company is the agreement with Northwind Logistics?", "Contoso Freight")]


def _asking(sweep: GroupSweep) -> GroupSweep | None:
    sweep.refresh_from_db()
    return sweep if sweep.status == "running" and sweep.progress_done >= 1 else None


def test_a_running_sweep_stops_at_its_next_question_and_frees_the_worker(celery_worker, alice_client, alice,
                                                                         workload):
    Document.objects.create(workload=workload, name="agreement.txt", text=CONTRACT, tokens=60, lines=7,
                            size_bytes=len(CONTRACT))
    for question, answer in QUESTIONS:
        Probe.objects.create(workload=workload, question=question, answer=answer)
    # Four sizes, three of them calibrated too: 28 questions, far more than it asks before the cancel.
    sweep = start_sweep(workload, alice, [1, 2, 4, 8])
    wait_for(lambda: _asking(sweep), 300, "the sweep's first question", every=0.2)

    cancelled_at = time.monotonic()
    response = alice_client.post(reverse("sweep_cancel", args=[sweep.pk]), follow=True)
    assert "Cancelled. A running sweep stops before its next question" in response.content.decode()
    stopped = f"group-size sweep {sweep.pk} was cancelled while running"
    wait_for(lambda: stopped in celery_worker.read_text(), 120, "the worker to stop the sweep", every=0.2)
    seconds_to_stop = time.monotonic() - cancelled_at

    sweep.refresh_from_db()
    asked, beat = sweep.progress_done, sweep.heartbeat_at
    assert (sweep.status, sweep.report) == ("cancelled", None)
    assert asked < sweep.progress_total, "it asked every question: the cancel stopped nothing"
    assert "Traceback" not in celery_worker.read_text(), celery_worker.read_text()[-3000:]
    print(f"sweep {sweep.pk}: stopped {seconds_to_stop:.1f} s after the cancel, after {asked} of "
          f"{sweep.progress_total} questions")

    # Its lease ended with it: the one worker process claims the next sweep at once, and the first never moves again.
    second = start_sweep(workload, alice, [1, 4])
    wait_for(lambda: GroupSweep.objects.filter(pk=second.pk, status="running").exists(), 60,
             "the worker to claim the next sweep", every=0.2)
    assert alice_client.post(reverse("sweep_cancel", args=[second.pk])).status_code == 302
    wait_for(lambda: f"group-size sweep {second.pk} was cancelled" in celery_worker.read_text(), 120,
             "the worker to stop the second sweep", every=0.2)
    sweep.refresh_from_db()
    assert (sweep.status, sweep.progress_done, sweep.heartbeat_at) == ("cancelled", asked, beat)
