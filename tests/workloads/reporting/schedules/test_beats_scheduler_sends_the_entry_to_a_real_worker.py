"""Beat's database scheduler loads the workload's entry and a real worker on the default queue runs its firing."""

import zoneinfo

import pytest
from django.utils import timezone

from tests.workloads.live import wait_for
from workloads.models import ScheduleEvent

pytestmark = pytest.mark.worker


def test_the_entry_reaches_a_worker_that_records_the_firing(celery_worker, workload):
    from django_celery_beat.schedulers import DatabaseScheduler

    from costplanner.celery import app

    # Beat loads only the crontab entries due within a couple of hours, so this one fires at this local hour.
    workload.schedule_hour = timezone.localtime(timezone=zoneinfo.ZoneInfo(workload.organisation.timezone)).hour
    workload.save()
    scheduler = DatabaseScheduler(app=app, lazy=True)
    entry = scheduler.schedule[f"comparison of workload {workload.pk}"]  # what beat itself would send
    assert entry.options["queue"] == "default"
    scheduler.apply_async(entry, advance=False)

    # The workload has no documents yet, so the worker records a skip rather than starting the model.
    event = wait_for(lambda: ScheduleEvent.objects.filter(workload=workload).first(), 60, "the firing's event")
    assert event.outcome == "skipped" and event.reason == "The workload has no documents yet: upload some first."
    assert "workloads.scheduled_comparison" in celery_worker.read_text()
