"""A firing queues this period's run with the saved settings, or records in plain words why it queued none."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.core.run_settings import DEFAULT_STRATEGIES
from tests.workloads.pages.conftest import make_run
from workloads.models import ApiPrice, ComparisonRun, Probe, ScheduleEvent, Workload
from workloads.reporting import scheduling
from workloads.models.periods import period_of
from workloads.tasks import scheduled_comparison

SAVED = {"strategies": ["chunked", "full_index_share"], "chunk_tokens": 128, "chunk_overlap": 16, "window": 512}


@pytest.fixture
def ready(workload, document, probe, prices):
    workload.run_settings = SAVED
    workload.save(update_fields=["run_settings"])
    return workload


def fire(workload, capture) -> tuple[ScheduleEvent, list]:
    with capture(execute=False) as callbacks:
        scheduled_comparison(workload.pk)
    return ScheduleEvent.objects.filter(workload=workload).first(), callbacks


def test_it_queues_a_scheduled_run_with_the_saved_settings(ready, django_capture_on_commit_callbacks):
    event, callbacks = fire(ready, django_capture_on_commit_callbacks)

    run = ComparisonRun.objects.get()
    assert run.trigger == ComparisonRun.Trigger.SCHEDULED and run.created_by is None
    assert run.period == period_of(ready, timezone.now()).label and run.period.endswith(("Q1", "Q2", "Q3", "Q4"))
    assert run.strategies == ["chunked", "full_index_share"]
    assert (run.chunk_tokens, run.chunk_overlap, run.window) == (128, 16, 512)
    assert run.status == ComparisonRun.Status.QUEUED and len(callbacks) == 1  # run_comparison, once committed
    assert (event.outcome, event.run, event.period, event.reason) == ("queued", run, run.period, "")
    ready.refresh_from_db()
    assert ready.run_settings == SAVED  # a scheduled run does not overwrite what a person chose


def test_with_no_saved_settings_it_runs_the_default_strategies(workload, document, probe, prices,
                                                               django_capture_on_commit_callbacks):
    fire(workload, django_capture_on_commit_callbacks)
    assert ComparisonRun.objects.get().strategies == list(DEFAULT_STRATEGIES)


def test_firing_twice_in_a_period_makes_one_run(ready, django_capture_on_commit_callbacks):
    fire(ready, django_capture_on_commit_callbacks)
    second, callbacks = fire(ready, django_capture_on_commit_callbacks)

    run = ComparisonRun.objects.get()
    assert not callbacks
    assert second.outcome == "skipped" and second.run is None
    assert second.reason == f"Run {run.pk} of {run.period} is already queued."
    assert list(ScheduleEvent.objects.values_list("outcome", flat=True)) == ["skipped", "queued"]


@pytest.mark.parametrize("status", [ComparisonRun.Status.FAILED, ComparisonRun.Status.CANCELLED])
def test_a_failed_or_cancelled_scheduled_run_leaves_its_period_open(ready, status, django_capture_on_commit_callbacks):
    dead = make_run(ready, status=status, trigger=ComparisonRun.Trigger.SCHEDULED)
    event, callbacks = fire(ready, django_capture_on_commit_callbacks)

    assert event.outcome == "queued" and len(callbacks) == 1
    assert event.run != dead and (event.run.trigger, event.run.period) == ("scheduled", dead.period)


def test_two_standing_scheduled_runs_in_one_period_break_the_constraint(ready):
    make_run(ready, status=ComparisonRun.Status.FAILED, trigger=ComparisonRun.Trigger.SCHEDULED)
    make_run(ready, status=ComparisonRun.Status.QUEUED, trigger=ComparisonRun.Trigger.SCHEDULED)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_run(ready, status=ComparisonRun.Status.SUCCEEDED, trigger=ComparisonRun.Trigger.SCHEDULED)


def test_a_firing_that_loses_the_race_records_a_skip(ready, monkeypatch, django_capture_on_commit_callbacks):
    # Another firing queued its run after this one looked: only the unique constraint can stop it now.
    standing = make_run(ready, status=ComparisonRun.Status.QUEUED, trigger=ComparisonRun.Trigger.SCHEDULED)
    monkeypatch.setattr(scheduling, "_standing_run", lambda workload, period: None)
    event, callbacks = fire(ready, django_capture_on_commit_callbacks)

    assert ComparisonRun.objects.get() == standing and not callbacks
    assert event.outcome == "skipped"
    assert event.reason == f"The schedule already started run {standing.pk} (queued) for {standing.period}."


def test_a_manual_run_of_the_period_that_succeeded_is_enough(ready, django_capture_on_commit_callbacks):
    manual = make_run(ready)
    event, _ = fire(ready, django_capture_on_commit_callbacks)
    assert ComparisonRun.objects.get() == manual
    assert event.reason == f"Run {manual.pk} of {manual.period} is already succeeded."


def test_a_cancelled_manual_run_does_not_stop_the_schedule(ready, django_capture_on_commit_callbacks):
    make_run(ready, status=ComparisonRun.Status.CANCELLED)
    event, _ = fire(ready, django_capture_on_commit_callbacks)
    assert event.outcome == "queued" and event.run.trigger == "scheduled"


@pytest.mark.parametrize("spoil, reason", [
    (lambda w: w.documents.all().delete(), "The workload has no documents yet: upload some first."),
    (lambda w: Probe.objects.filter(workload=w).delete(),
     "The workload has no probes yet: add or generate questions first."),
    (lambda w: ApiPrice.objects.all().delete(), "No API price for SmolLM2-135M-Instruct from example-api in force on"),
    (lambda w: Workload.objects.filter(pk=w.pk).update(schedule="off"), "The schedule is off."),
    (lambda w: Workload.objects.filter(pk=w.pk).update(run_settings={"strategies": ["chunked", "full_magic"]}),
     "The saved run settings no longer validate (unknown strategy 'full_magic';"),
    (lambda w: Workload.objects.filter(pk=w.pk).update(run_settings={"chunk_tokens": 64, "chunk_overlap": 64}),
     "The saved run settings no longer validate (chunk overlap (64 tokens) must be smaller than the chunk size "
     "(64 tokens))"),
    (lambda w: Workload.objects.filter(pk=w.pk).update(run_settings={"strategies": "chunked"}),
     "The saved strategies are not a list of names"),
])
def test_it_skips_with_a_reason_and_queues_nothing(ready, spoil, reason, django_capture_on_commit_callbacks):
    spoil(ready)
    event, callbacks = fire(ready, django_capture_on_commit_callbacks)

    assert not ComparisonRun.objects.exists() and not callbacks
    assert event.outcome == "skipped" and event.run is None
    assert reason in event.reason and event.period == period_of(ready, timezone.now()).label


def test_a_deleted_workloads_last_firing_does_nothing(ready, django_capture_on_commit_callbacks):
    pk = ready.pk
    ready.delete()
    with django_capture_on_commit_callbacks(execute=False):
        scheduled_comparison(pk)
    assert not ScheduleEvent.objects.exists() and not ComparisonRun.objects.exists()
