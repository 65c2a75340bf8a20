from django import template
from django.utils import timezone

from workloads import runs, schedules
from workloads.forms import ScheduleForm

register = template.Library()

RECENT_EVENTS = 5


@register.inclusion_tag("workloads/includes/schedule_panel.html", takes_context=True)
def schedule_panel(context, workload):
    settings = workload.run_settings if isinstance(workload.run_settings, dict) else {}
    return {
        "request": context.get("request"),
        "workload": workload,
        "in_words": schedules.describe(workload),
        "fire_times": schedules.next_fire_times(workload),
        "strategies": settings.get("strategies") or [],
        "settings": [(name.replace("_", " "), settings[name]) for name in runs.SETTINGS if name in settings],
        "form": ScheduleForm(instance=workload),
        "events": workload.schedule_events.select_related("run", "fired_by")[:RECENT_EVENTS],
        "refirable_period": schedules.refirable_period(workload, timezone.now()),
    }
