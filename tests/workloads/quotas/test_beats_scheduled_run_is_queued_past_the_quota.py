"""Beat's scheduled run is queued even past the quota of runs, and counts: it is one run per reader and period, and a
skipped period would be a hole in the history managers read. A person firing a period again is held to the quota,
and the firing records why it queued nothing."""

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.workloads.quotas.conftest import page_text
from workloads.comparisons.starting import start_run
from workloads.models import ComparisonRun, Document, Probe, ScheduleEvent, Workload
from workloads.organisations import quotas
from workloads.models.periods import period_of
from workloads.tasks import scheduled_comparison


@pytest.fixture
def busy(acme, bob, ready):
    """Another of Acme's workloads, with two runs queued: a run of the workload itself would stand for its period."""
    other = Workload.objects.create(organisation=acme, name="Support tickets", target_model=ready.target_model,
                                    api_provider=ready.api_provider, api_model=ready.api_model)
    Document.objects.create(workload=other, name="t.txt", text="Refunds take 5 days.", tokens=8, lines=1, size_bytes=20)
    Probe.objects.create(workload=other, question="How long do refunds take?", answer="5 days")
    return [start_run(other, bob, ["chunked"]) for _ in range(2)]


def test_beat_queues_the_periods_run_past_the_quota_and_it_counts(ready, settings, busy):
    settings.QUOTA_RUNS_QUEUED = 2

    scheduled_comparison(ready.pk)

    event = ScheduleEvent.objects.get()
    assert event.outcome == "queued" and event.run.trigger == ComparisonRun.Trigger.SCHEDULED
    runs = next(use for use in quotas.usage(ready.organisation) if use.quota == quotas.RUNS_QUEUED)
    assert (runs.used, runs.limit) == (3, 2)


def test_a_person_firing_the_period_again_is_held_to_the_quota(client, bob, ready, settings, busy):
    settings.QUOTA_RUNS_QUEUED = 2
    period = period_of(ready, timezone.now()).label
    ScheduleEvent.objects.create(workload=ready, period=period, outcome="skipped", reason="No API price in force.")
    client.force_login(bob)

    page = client.post(reverse("schedule_fire", args=[ready.pk]), follow=True)

    reason = ("Acme's quota of runs queued at once is 2: 2 comparison runs and sweeps are queued or running; wait for "
              "one to finish or cancel one, or ask the site's operator for a larger quota.")
    assert f"Fired {period} again, but queued nothing: {reason}" in page_text(page)
    assert ScheduleEvent.objects.first().reason == reason
    assert not ComparisonRun.objects.filter(trigger=ComparisonRun.Trigger.SCHEDULED).exists()
