"""Each workload has exactly one beat entry, kept in step with its schedule, hour and organisation's time zone."""

import json

from django.apps import apps as django_apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django_celery_beat.models import PeriodicTask

from costplanner.celery import app
from workloads import signals
from workloads.comparisons.starting import start_run
from workloads.models import Workload


def entry(workload) -> PeriodicTask:
    (task,) = PeriodicTask.objects.filter(name=f"comparison of workload {workload.pk}")
    workload.refresh_from_db()
    assert workload.periodic_task_id == task.pk
    return task


def test_creating_a_workload_creates_its_quarterly_entry(workload):
    task = entry(workload)
    assert task.task == "workloads.scheduled_comparison" and json.loads(task.args) == [workload.pk]
    assert task.queue == "default" and task.enabled
    assert app.amqp.router.route({}, task.task)["queue"].name == "default"  # never the gpu workers' queue
    cron = task.crontab
    assert (cron.minute, cron.hour, cron.day_of_month, cron.month_of_year, cron.day_of_week) == (
        "0", "6", "1", "1,4,7,10", "*")
    assert str(cron.timezone) == "America/New_York"


def test_editing_the_hour_and_schedule_updates_the_same_entry(workload):
    before = entry(workload)
    workload.schedule, workload.schedule_hour = Workload.Schedule.MONTHLY, 21
    workload.save()
    after = entry(workload)
    assert after.pk == before.pk and PeriodicTask.objects.count() == 1
    assert (after.crontab.hour, after.crontab.month_of_year, after.crontab.day_of_month) == ("21", "*", "1")


def test_migrate_gives_a_workload_without_an_entry_its_entry(workload):
    # As a workload saved before migration 0002 stands, or one whose entry was deleted in the admin.
    entry(workload).delete()
    workload.refresh_from_db()
    assert workload.periodic_task is None

    call_command("migrate", verbosity=0)

    task = entry(workload)
    assert task.enabled and str(task.crontab.timezone) == "America/New_York"


def test_migrating_back_before_schedules_leaves_the_entries_alone(workload, django_assert_num_queries):
    entry(workload).delete()
    before_schedules = MigrationLoader(connection).project_state(("workloads", "0001_initial")).apps

    # At 0001 the workloads table has no periodic_task column: a query for it would fail. Only this
    # receiver is called: the others (content types, permissions) would query their own tables.
    with django_assert_num_queries(0):
        signals.migrated(sender=None, app_config=django_apps.get_app_config("workloads"), apps=before_schedules)


def test_off_disables_the_entry_and_keeps_it(workload):
    workload.schedule = Workload.Schedule.OFF
    workload.save()
    assert not entry(workload).enabled
    workload.schedule = Workload.Schedule.QUARTERLY
    workload.save()
    assert entry(workload).enabled


def test_changing_the_organisations_time_zone_moves_all_its_entries(workload, acme):
    other = Workload.objects.create(organisation=acme, name="Support tickets", target_model=workload.target_model,
                                    api_provider="example-api", schedule=Workload.Schedule.MONTHLY, schedule_hour=9)
    acme.refresh_from_db()
    acme.timezone = "Europe/Berlin"
    acme.save(update_fields=["timezone"])
    assert str(entry(workload).crontab.timezone) == "Europe/Berlin"
    assert str(entry(other).crontab.timezone) == "Europe/Berlin" and entry(other).crontab.hour == "9"


def test_a_manual_run_saving_its_settings_leaves_the_entry_alone(workload, document, probe, prices, alice,
                                                                 django_capture_on_commit_callbacks):
    before = entry(workload)
    with django_capture_on_commit_callbacks(execute=False):
        start_run(workload, alice, ["chunked"], chunk_tokens=128)
    after = entry(workload)
    assert after.date_changed == before.date_changed and after.crontab_id == before.crontab_id


def test_deleting_the_workload_removes_its_entry(workload, charlie):
    other_org = Workload.objects.create(organisation=charlie.membership.organisation, name="Theirs",
                                        target_model=workload.target_model, api_provider="example-api")
    workload.delete()
    assert list(PeriodicTask.objects.values_list("name", flat=True)) == [f"comparison of workload {other_org.pk}"]
