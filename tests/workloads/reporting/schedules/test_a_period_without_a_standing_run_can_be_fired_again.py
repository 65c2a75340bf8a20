"""A period whose firing was skipped, or whose scheduled run failed or was cancelled, can be fired again from
the workload page: the new run is that period's scheduled run, and the firing records who asked for it."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.workloads.pages.conftest import html, make_run
from workloads.models import ComparisonRun, Probe, ScheduleEvent, Workload
from workloads.models.periods import period_of


@pytest.fixture
def period(workload, document, probe, prices) -> str:
    """This period's label, for a workload ready to run."""
    return period_of(workload, timezone.now()).label


def fired(workload, period: str, run_status: str | None, trigger: str = "scheduled") -> ScheduleEvent:
    """Beat's firing of `period`: it queued a run that now has run_status, or (None) it skipped."""
    if run_status is None:
        return ScheduleEvent.objects.create(workload=workload, period=period, outcome="skipped",
                                            reason="No API price in force.")
    run = make_run(workload, status=run_status, trigger=trigger)
    return ScheduleEvent.objects.create(workload=workload, period=period, outcome="queued", run=run)


def fire_again(client, workload, capture):
    with capture(execute=False) as callbacks:
        response = client.post(reverse("schedule_fire", args=[workload.pk]), follow=True)
    return html(response), callbacks


@pytest.mark.parametrize("run_status", ["failed", "cancelled", None])
def test_a_period_left_without_a_run_is_fired_again(alice_client, alice, workload, period, run_status,
                                                    django_capture_on_commit_callbacks):
    fired(workload, period, run_status)
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))
    assert f'action="{reverse("schedule_fire", args=[workload.pk])}"' in page
    assert f"Fire {period} again" in page

    page, callbacks = fire_again(alice_client, workload, django_capture_on_commit_callbacks)

    run = ComparisonRun.objects.get(status="queued")
    assert (run.trigger, run.period, run.created_by) == ("scheduled", period, alice)
    assert len(callbacks) == 1  # run_comparison, once committed
    event = ScheduleEvent.objects.first()
    assert (event.outcome, event.run, event.fired_by) == ("queued", run, alice)
    assert f"Queued run {run.pk} as {period}&#x27;s scheduled comparison." in page
    assert ", again by alice" in page
    assert f"Fire {period} again" not in page  # the new run stands for the period


@pytest.mark.parametrize("setup", [
    pytest.param(lambda w, p: fired(w, p, "queued"), id="its scheduled run is queued"),
    pytest.param(lambda w, p: fired(w, p, "running"), id="its scheduled run is running"),
    pytest.param(lambda w, p: (fired(w, p, None), make_run(w)), id="a run by hand succeeded"),
    pytest.param(lambda w, p: None, id="the schedule has not fired this period"),
    pytest.param(lambda w, p: (fired(w, p, "failed"), Workload.objects.filter(pk=w.pk).update(schedule="off")),
                 id="the schedule is off"),
])
def test_nothing_is_fired_again_while_the_period_needs_nothing(alice_client, workload, period, setup,
                                                               django_capture_on_commit_callbacks):
    setup(workload, period)
    runs, events = ComparisonRun.objects.count(), ScheduleEvent.objects.count()
    assert "Fire " not in html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    page, callbacks = fire_again(alice_client, workload, django_capture_on_commit_callbacks)

    assert "Nothing to fire again" in page and not callbacks
    assert (ComparisonRun.objects.count(), ScheduleEvent.objects.count()) == (runs, events)


def test_an_earlier_periods_failure_is_not_offered(alice_client, workload, period):
    last_year = timezone.now() - dt.timedelta(days=366)
    run = make_run(workload, status="failed", trigger="scheduled", created_at=last_year)
    ScheduleEvent.objects.create(workload=workload, period=run.period, outcome="queued", run=run)
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))
    assert f"run {run.pk}</a>, now failed" in page and "Fire " not in page


def test_firing_again_while_the_cause_remains_says_why(alice_client, alice, workload, period,
                                                       django_capture_on_commit_callbacks):
    fired(workload, period, "failed")
    Probe.objects.filter(workload=workload).delete()

    page, callbacks = fire_again(alice_client, workload, django_capture_on_commit_callbacks)

    assert not callbacks and not ComparisonRun.objects.filter(status="queued").exists()
    event = ScheduleEvent.objects.first()
    assert (event.outcome, event.fired_by) == ("skipped", alice)
    assert f"Fired {period} again, but queued nothing: The workload has no probes yet" in page
    assert f"Fire {period} again" in page  # still nothing stands for the period


def test_only_a_member_can_fire_and_only_by_post(alice_client, charlie_client, workload, period):
    fired(workload, period, "failed")
    url = reverse("schedule_fire", args=[workload.pk])
    assert charlie_client.post(url).status_code == 404
    assert Client().post(url).status_code == 302  # to the login page
    assert alice_client.get(url).status_code == 405
    assert alice_client.post(reverse("schedule_fire", args=[workload.pk + 1000])).status_code == 404
    assert alice_client.post(f"/workloads/{10**40}/schedule/fire/").status_code == 404  # past any integer column
    assert ComparisonRun.objects.count() == 1 and ScheduleEvent.objects.count() == 1


@pytest.mark.parametrize("trigger, offered", [("scheduled", True), ("manual", False)])
def test_the_page_of_a_failed_scheduled_run_offers_to_fire_its_period_again(alice_client, workload, period, trigger,
                                                                            offered):
    run = fired(workload, period, "failed", trigger=trigger).run
    page = html(alice_client.get(reverse("run_detail", args=[run.pk])))
    assert (f"Fire {period} again" in page) is offered
    assert (f"the schedule's run for {period}" in page) is offered


def test_the_dashboard_points_to_a_period_that_needs_firing_again(alice_client, workload, period):
    dashboard = reverse("dashboard")
    link = f'href="{reverse("workload_detail", args=[workload.pk])}#schedule">Fire it again</a>'
    assert link not in html(alice_client.get(dashboard))

    fired(workload, period, "failed")
    page = html(alice_client.get(dashboard))
    assert f"{period} has no scheduled comparison that stands" in page and link in page
