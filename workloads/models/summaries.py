from django.conf import settings
from django.db import models

from workloads.models.runs import ComparisonRun


class Summary(models.Model):
    """A manager's PDF summary of a run, rendered by a task and kept in the database.

    A run can be exported again (after a re-price, say); the newest finished one is the one served.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="summaries")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    pdf = models.BinaryField(null=True, blank=True)
    pages = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)  # when a worker claimed it
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "summaries"

    def __str__(self) -> str:
        return f"summary {self.pk} of run {self.run_id}"
