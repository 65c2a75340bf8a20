from django.conf import settings
from django.db import models

from workloads.models.jobs import Job, status_field
from workloads.models.workloads import Workload


class GroupSweep(Job):
    """Whole documents with Index Share at several group sizes on a workload's probes (engine.evaluation.group_sweep):
    how many layers can share one indexer before accuracy drops, for this workload. Kept apart from comparison runs:
    it is a study of one engine setting, not a period's measurement, so it never enters the history, the
    planning's measured rates or the schedule."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        CANCELLED = "cancelled"

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="group_sweeps")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    status = status_field(Status)
    model = models.CharField(max_length=200)
    group_sizes = models.JSONField(help_text="the group sizes asked, in order")
    # The run settings of the other attention parameters (window, top-k, global blocks, indexer) and the gate.
    settings = models.JSONField(default=dict, blank=True)
    device = models.CharField(max_length=200, blank=True)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    report = models.JSONField(null=True, blank=True, help_text="engine.evaluation.group_sweep's report")

    def __str__(self) -> str:
        return f"group-size sweep {self.pk} of {self.workload}"
