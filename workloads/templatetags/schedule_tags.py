from django import template
from django.utils import timezone

from workloads.comparisons import starting
from workloads.forms import ScheduleForm, instance_html
from workloads.reporting import scheduling
from workloads.views import fragments

register = template.Library()

PANEL = "workloads/includes/schedule_panel.html"
RECENT_EVENTS = 5
# What a row of recent firings shows (and its workload, which the related manager sets on each event).
EVENT_ROW = ("workload", "period", "fired_at", "outcome", "reason", "run__status", "fired_by__username")


@register.inclusion_tag(PANEL, takes_context=True)
def schedule_panel(context, workload):
    settings = workload.run_settings if isinstance(workload.run_settings, dict) else {}
    # What the table shows: with every column of each event's run (its whole report), not what it shows.
    events = list(workload.schedule_events.select_related("run", "fired_by").only(*EVENT_ROW)[:RECENT_EVENTS])
    fire_times = scheduling.next_fire_times(workload)
    return {
        "request": context.get("request"),
        "workload": workload,
        "in_words": scheduling.describe(workload),
        "fire_times": fire_times,
        # Their list, kept as HTML until they change (when the first passes, or the schedule does): formatting four
        # dates on the organisation's clock was 3% of the workload page's CPU.
        "fire_times_key": fragments.key((PANEL,), workload.organisation.timezone, fire_times),
        "fragment_timeout": fragments.TIMEOUT_S,
        "strategies": settings.get("strategies") or [],
        "settings": [(name.replace("_", " "), settings[name]) for name in starting.SETTINGS if name in settings],
        "form": instance_html(ScheduleForm, workload),
        "events": events,
        # Offered beside the firings: a period the schedule never fired in cannot be fired again, so without any
        # there is nothing to ask (a query that was 6% of the workload page's CPU).
        "refirable_period": scheduling.refirable_period(workload, timezone.now()) if events else None,
    }
