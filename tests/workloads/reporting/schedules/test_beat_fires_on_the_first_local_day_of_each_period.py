"""The beat entry fires at the local hour on the first day of each quarter or month, as Celery's crontab computes it."""

import datetime as dt
import zoneinfo

from django_celery_beat.models import CrontabSchedule

from workloads.reporting.scheduling import fire_times, next_fire_times

NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
UTC = dt.timezone.utc
AFTER = dt.datetime(2026, 12, 2, tzinfo=NEW_YORK)


def test_quarterly_fires_at_six_new_york_time_on_the_first_of_january_april_july_and_october(workload):
    times = next_fire_times(workload, 4, after=AFTER)

    assert [t.replace(tzinfo=None) for t in times] == [
        dt.datetime(2027, 1, 1, 6), dt.datetime(2027, 4, 1, 6), dt.datetime(2027, 7, 1, 6), dt.datetime(2027, 10, 1, 6)]
    assert all(t.tzinfo == NEW_YORK for t in times)
    # The same wall time is a different UTC instant in winter (EST, -5) and summer (EDT, -4).
    assert [t.astimezone(UTC) for t in times] == [
        dt.datetime(2027, 1, 1, 11, tzinfo=UTC), dt.datetime(2027, 4, 1, 10, tzinfo=UTC),
        dt.datetime(2027, 7, 1, 10, tzinfo=UTC), dt.datetime(2027, 10, 1, 10, tzinfo=UTC)]


def test_beat_itself_finds_each_of_those_times_due_and_the_minute_before_not(workload):
    times = next_fire_times(workload, 4, after=AFTER)
    schedule = workload.periodic_task.crontab.schedule
    last_run = AFTER
    for when in times:
        schedule.nowfun = lambda moment=when - dt.timedelta(minutes=1): moment
        assert not schedule.is_due(last_run).is_due, when
        schedule.nowfun = lambda moment=when: moment
        assert schedule.is_due(last_run).is_due, when
        last_run = when


def test_monthly_fires_on_the_first_of_every_month(workload):
    workload.schedule, workload.schedule_hour = "monthly", 23
    workload.save()
    times = next_fire_times(workload, 4, after=AFTER)

    assert [t.replace(tzinfo=None) for t in times] == [
        dt.datetime(2027, 1, 1, 23), dt.datetime(2027, 2, 1, 23), dt.datetime(2027, 3, 1, 23),
        dt.datetime(2027, 4, 1, 23)]
    # 23:00 in New York is already the 2nd in UTC: the crontab runs on the local calendar.
    assert times[0].astimezone(UTC) == dt.datetime(2027, 1, 2, 4, tzinfo=UTC)


def test_month_of_year_every_third_month_alone_would_fire_on_the_second_of_january(db):
    every_day_of_the_month = CrontabSchedule(minute="0", hour="6", day_of_month="*", month_of_year="*/3",
                                             day_of_week="*", timezone="America/New_York")
    first_two = fire_times(every_day_of_the_month.schedule, 2, after=AFTER)
    assert [t.date() for t in first_two] == [dt.date(2027, 1, 1), dt.date(2027, 1, 2)]


def test_a_workload_with_its_schedule_off_has_no_next_firings(workload):
    workload.schedule = "off"
    workload.save()
    assert next_fire_times(workload, 4, after=AFTER) == []
