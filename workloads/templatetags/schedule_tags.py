from django import template
from django.utils import timezone

from workloads.comparisons import starting
from workloads.forms import ScheduleForm
from workloads.reporting import scheduling

register = template.Library()

RECENT_EVENTS = 5


@register.inclusion_tag("workloads/includes/schedule_panel.html", takes_context=True)
def schedule_panel(context, workload):
    settings = workload.run_settings if isinstance(workload.run_settings, dict) else {}
    return {
        "request": context.get("request"),
        "workload": workload,
        "in_words": scheduling.describe(workload),
        "fire_times": scheduling.next_fire_times(workload),
        "strategies": settings.get("strategies") or [],
        "settings": [(name.replace("_", " "), settings[name]) for name in starting.SETTINGS if name in settings],
        "form": ScheduleForm(instance=workload),
        "events": workload.schedule_events.select_related("run", "fired_by")[:RECENT_EVENTS],
        "refirable_period": scheduling.refirable_period(workload, timezone.now()),
    }
