from django.conf import settings
from django.db import models

from workloads.models.comparison_runs import ComparisonRun
from workloads.models.workloads import Workload


class ScheduleEvent(models.Model):
    """One firing of a workload's schedule: the run it queued, or why it queued none."""

    class Outcome(models.TextChoices):
        QUEUED = "queued"
        SKIPPED = "skipped"

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="schedule_events")
    period = models.CharField(max_length=10)
    fired_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    reason = models.CharField(max_length=500, blank=True, help_text="why it was skipped")
    run = models.ForeignKey(ComparisonRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    fired_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+", help_text="who fired the period again; empty for beat's firing")

    class Meta:
        ordering = ["-fired_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.workload} {self.period}: {self.outcome}"
