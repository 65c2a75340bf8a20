"""A workload's schedule: its beat entry, when that entry fires, and what one firing does.

Each workload has one django-celery-beat PeriodicTask on a CrontabSchedule in the organisation's
time zone, so "06:00 on the first day of the quarter" is local wall time whatever the DST offset.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import operator
import zoneinfo

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django_celery_beat.models import CrontabSchedule, PeriodicTask

from workloads.comparisons import starting
from workloads.models import ComparisonRun, ScheduleEvent, Workload
from workloads.models.comparison_runs import STANDING_STATUSES
from workloads.models.periods import period_of

TASK = "workloads.scheduled_comparison"
QUEUE = "default"
# How long a workload page's next firings are kept unused (they are used only until the first of them passes).
FIRE_TIMES_TIMEOUT_S = 24 * 3600
# Quarterly fires on the first day of these months. month_of_year="*/3" alone would be wrong: with
# day_of_month="*" it matches every day of January, April, July and October, and it is the explicit
# day_of_month="1" that makes one firing per quarter (tests/workloads/reporting/schedules shows both).
MONTHS = {Workload.Schedule.QUARTERLY: "1,4,7,10", Workload.Schedule.MONTHLY: "*"}
IN_WORDS = {Workload.Schedule.QUARTERLY: "Quarterly, on 1 January, April, July and October",
            Workload.Schedule.MONTHLY: "Monthly, on the 1st of each month"}


def task_name(workload_pk: int) -> str:
    return f"comparison of workload {workload_pk}"


def _crontab(workload: Workload) -> CrontabSchedule:
    # An off schedule keeps the quarterly crontab: the entry needs one, and it never fires while disabled.
    months = MONTHS.get(workload.schedule, MONTHS[Workload.Schedule.QUARTERLY])
    spec = {"minute": "0", "hour": str(workload.schedule_hour), "day_of_month": "1", "month_of_year": months,
            "day_of_week": "*", "timezone": workload.organisation.timezone}
    # Rows are shared between workloads (django-celery-beat's habit), and the admin may have made duplicates.
    return CrontabSchedule.objects.filter(**spec).first() or CrontabSchedule.objects.create(**spec)


def sync_schedule(workload: Workload) -> PeriodicTask:
    """Make the workload's one beat entry match its schedule; "off" disables the entry and keeps it."""
    task = workload.periodic_task or PeriodicTask.objects.filter(name=task_name(workload.pk)).first()
    if task is None:
        task = PeriodicTask(name=task_name(workload.pk), task=TASK, args=json.dumps([workload.pk]), queue=QUEUE)
    crontab, enabled = _crontab(workload), workload.schedule != Workload.Schedule.OFF
    if task.pk is None or task.crontab_id != crontab.pk or task.enabled != enabled:
        if task.crontab_id != crontab.pk:
            task.last_run_at = None  # beat then counts from now, so the next firing is the one next_fire_times shows
        task.crontab, task.enabled = crontab, enabled
        task.save()
    if workload.periodic_task_id != task.pk:
        # A queryset update: saving the workload again would send post_save back here.
        Workload.objects.filter(pk=workload.pk).update(periodic_task=task)
        workload.periodic_task = task
    return task


def delete_schedule(workload: Workload) -> None:
    task = PeriodicTask.objects.filter(pk=workload.periodic_task_id).first() if workload.periodic_task_id else None
    task = task or PeriodicTask.objects.filter(name=task_name(workload.pk)).first()
    if task is not None:
        task.delete()  # the model's delete, which tells beat its entries changed


def fire_times(schedule, n: int, after: dt.datetime) -> list[dt.datetime]:
    """The next n times a celery schedule fires strictly after `after`, by Celery's own crontab arithmetic.

    Beat asks `schedule.remaining_estimate(last_run_at)` how long is left; pretending "now" and the last
    run are each fire time in turn walks the same path beat will. The steps are added in UTC: adding a
    timedelta to a local aware datetime moves its wall time, which is an hour off across a DST change.
    It sets the schedule's `nowfun`: pass a schedule made for the purpose (CrontabSchedule.schedule is new each time).
    """
    cursor = after.astimezone(dt.timezone.utc)
    times = []
    for _ in range(n):
        schedule.nowfun = lambda moment=cursor: moment
        cursor = cursor + schedule.remaining_estimate(cursor)
        times.append(cursor)
    return [t.astimezone(schedule.tz) for t in times]


def next_fire_times(workload: Workload, n: int = 4, after: dt.datetime | None = None) -> list[dt.datetime]:
    """When the workload's beat entry fires next, in the organisation's time zone; none while it is disabled."""
    if Workload.periodic_task.is_cached(workload):
        task = workload.periodic_task  # read with the workload, and its crontab (the workload page's)
    else:  # the entry with its crontab in one query
        task = (PeriodicTask.objects.select_related("crontab").filter(pk=workload.periodic_task_id).first()
                if workload.periodic_task_id else None)
    if task is None or not task.enabled or task.crontab is None:
        return []
    after = after or timezone.now()
    crontab = task.crontab
    key = "fire-times:" + hashlib.sha256(repr((crontab.minute, crontab.hour, crontab.day_of_week, crontab.day_of_month,
                                                crontab.month_of_year, str(crontab.timezone), n)).encode()).hexdigest()
    kept = cache.get(key)
    # The next n times after a moment are the same after any later moment before the first of them: Celery's
    # crontab arithmetic (4 walks of it, 2% of the workload page's CPU) runs once per firing, not once per view.
    if kept is not None and kept[0] <= after < kept[1][0]:
        times = kept[1]
    else:
        times = fire_times(crontab.schedule, n, after)
        cache.set(key, (after, times), FIRE_TIMES_TIMEOUT_S)
    zone = zoneinfo.ZoneInfo(workload.organisation.timezone)
    return [t.astimezone(zone) for t in times]


def describe(workload: Workload) -> str:
    """The schedule in words, e.g. "Quarterly, on 1 January, April, July and October at 06:00 Europe/Berlin"."""
    if workload.schedule not in IN_WORDS:
        return "Off: no scheduled comparisons"
    return f"{IN_WORDS[workload.schedule]} at {workload.schedule_hour:02d}:00 {workload.organisation.timezone}"


def fire(workload: Workload, now: dt.datetime, user=None) -> ScheduleEvent:
    """One firing of the schedule: queue this period's run with the saved settings, or record why not.

    user: who fired the period again from the workload page; None for beat.
    """
    period = period_of(workload, now)
    run, reason = None, _reason_to_skip(workload, period.label)
    if reason is None:
        settings = workload.run_settings
        try:
            with transaction.atomic():  # a savepoint: a lost race on the unique constraint leaves the rest intact
                # Beat's firing queues past the quota of runs (one run per reader and period, and a skipped period
                # is a hole in the history); a person firing the period again is held to it like any start.
                run = starting.start_run(workload, user, strategies=settings.get("strategies"),
                                         trigger=ComparisonRun.Trigger.SCHEDULED, past_quota=user is None,
                                         **starting.saved_readers(workload), **_values(settings))
        except ValidationError as exc:
            reason = _sentence(" ".join(exc.messages))
        except IntegrityError:
            reason = _already_scheduled(workload, period.label)
    return ScheduleEvent.objects.create(
        workload=workload, period=period.label, run=run, reason=(reason or "")[:500], fired_by=user,
        outcome=ScheduleEvent.Outcome.QUEUED if run else ScheduleEvent.Outcome.SKIPPED)


def refirable_period(workload: Workload, now: dt.datetime) -> str | None:
    """The current period, if the schedule fired in it and left no run standing; otherwise None.

    That is a period whose firing was skipped (no price yet, say) or whose run failed or was cancelled:
    firing it again gives the period its scheduled run, compared with the last period and summarised
    as a PDF. Earlier periods cannot be fired again: a run belongs to the period it is queued in.
    """
    return refirable_periods([workload], now).get(workload.pk)


def refirable_periods(workloads: list[Workload], now: dt.datetime) -> dict[int, str]:
    """refirable_period for many workloads in one query (the dashboard's): workload pk -> its refirable period."""
    periods = {w.pk: period_of(w, now).label for w in workloads if w.schedule != Workload.Schedule.OFF}
    if not periods:
        return {}
    each = functools.reduce(operator.or_, (Q(workload=pk, period=label) for pk, label in periods.items()))
    standing = ComparisonRun.objects.filter(workload=OuterRef("workload"), period=OuterRef("period"),
                                            status__in=STANDING_STATUSES)
    fired = ScheduleEvent.objects.filter(each).exclude(Exists(standing)).values_list("workload", "period")
    return {pk: label for pk, label in periods.items() if (pk, label) in set(fired)}


def _standing_run(workload: Workload, period: str) -> ComparisonRun | None:
    return workload.runs.filter(period=period, status__in=STANDING_STATUSES).order_by("created_at").first()


def _reason_to_skip(workload: Workload, period: str) -> str | None:
    if workload.schedule == Workload.Schedule.OFF:
        return "The schedule is off."
    existing = _standing_run(workload, period)
    if existing is not None:
        return f"Run {existing.pk} of {period} is already {existing.status}."
    settings = workload.run_settings
    if not isinstance(settings, dict):
        return "The saved run settings are not a set of named values; start a comparison by hand to save new ones."
    strategies = settings.get("strategies")
    if strategies is not None and not (isinstance(strategies, list) and all(isinstance(s, str) for s in strategies)):
        return "The saved strategies are not a list of names; start a comparison by hand to save new ones."
    try:  # as start_run will see them: no strategies means the defaults, and unset values are left out
        starting.check_settings(list(dict.fromkeys(strategies or starting.DEFAULT_STRATEGIES)), _values(settings),
                                workload.target_model)
    except ValidationError as exc:
        return (f"The saved run settings no longer validate ({' '.join(exc.messages)}); "
                "start a comparison by hand to save new ones.")
    return None


def _values(settings: dict) -> dict:
    """The engine settings among the saved ones; anything else stored there is not passed on."""
    return {name: settings[name] for name in starting.SETTINGS if settings.get(name) is not None}


def _already_scheduled(workload: Workload, period: str) -> str:
    """Why a firing that lost a race (on the unique constraint) queued nothing."""
    run = workload.runs.filter(period=period, trigger=ComparisonRun.Trigger.SCHEDULED,
                               status__in=STANDING_STATUSES).first()
    which = f"run {run.pk} ({run.status})" if run else "a run"
    return f"The schedule already started {which} for {period}."


def _sentence(message: str) -> str:
    """start_run's messages are clauses ("the workload has no documents yet: ..."); events store sentences."""
    message = message[:1].upper() + message[1:]
    return message if message.endswith(".") else message + "."
