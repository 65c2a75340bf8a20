"""Schedule periods: the quarter or month a moment falls in, on the organisation's calendar.

A run belongs to the period of the day it was queued in the organisation's time zone, so a
run queued at 23:30 on 31 March in New York counts for Q1 even though it is April in UTC.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.utils import timezone


@dataclass(frozen=True)
class Period:
    label: str  # "2027-Q1" or "2027-01"
    start: dt.date


def local_date(workload, when: dt.datetime) -> dt.date:
    return when.astimezone(zoneinfo.ZoneInfo(workload.organisation.timezone)).date()


def start_moment(day: dt.date, time_zone: str) -> dt.datetime:
    """Midnight at the start of `day` in the time zone."""
    return dt.datetime.combine(day, dt.time.min, tzinfo=zoneinfo.ZoneInfo(time_zone))


def today(workload) -> dt.date:
    """Today on the organisation's calendar: the day whose prices are in force for a run queued now."""
    return local_date(workload, timezone.now())


def period_of(workload, when: dt.datetime) -> Period:
    """The workload's period containing `when`: monthly if it is scheduled monthly, otherwise quarterly."""
    day = local_date(workload, when)
    if workload.schedule == "monthly":
        return Period(f"{day.year}-{day.month:02d}", day.replace(day=1))
    quarter = (day.month - 1) // 3 + 1
    return Period(f"{day.year}-Q{quarter}", dt.date(day.year, 3 * quarter - 2, 1))
