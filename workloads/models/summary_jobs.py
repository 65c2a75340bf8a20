from django.conf import settings
from django.db import models

from workloads.models.comparison_runs import ComparisonRun
from workloads.models.jobs import DoneStatus, Job, status_field


class Summary(Job):
    """A manager's PDF summary of a run, rendered by a task and kept in the database.

    A run can be exported again (after a re-price, say); the newest finished one is the one served.
    """

    Status = DoneStatus

    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="summaries")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    status = status_field(Status)
    pdf = models.BinaryField(null=True, blank=True)
    pages = models.PositiveIntegerField(default=0)
    # The decision, the monthly figures and the alerts as the PDF states them: a mail's body quotes these,
    # so that it never contradicts its attachment after the run is re-priced.
    digest = models.TextField(blank=True)

    class Meta(Job.Meta):
        verbose_name_plural = "summaries"

    def __str__(self) -> str:
        return f"summary {self.pk} of run {self.run_id}"

    @property
    def out_of_date(self) -> bool:
        """Whether the run's figures were recorded again (a re-pricing) after this PDF was begun."""
        compared_at = self.run.compared_at
        return bool(compared_at and self.started_at and compared_at > self.started_at)


class SummaryEmail(Job):
    """One sending of a summary's PDF to the organisation's recipients, sent by a task.

    The schedule's own export is sent on its own (requested_by is empty); a member can send any
    finished summary again. The addresses are kept as they were when it was queued. A server may
    take some of them and refuse others: `delivered` keeps those it took and `refused` those it
    refused for good (5xx), so that a later try goes only to those told to try later (4xx) or not
    reached; "partial" says that some never got it.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SENT = "sent"
        PARTIAL = "partial", "partly sent"
        FAILED = "failed"

    summary = models.ForeignKey(Summary, on_delete=models.CASCADE, related_name="emails")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    recipients = models.TextField(help_text="one address per line")
    delivered = models.TextField(blank=True, help_text="those of the recipients the mail server took, one per line")
    refused = models.TextField(blank=True, help_text="those it refused for good, one per line: address (its answer)")
    status = status_field(Status)

    def __str__(self) -> str:
        return f"e-mail {self.pk} of summary {self.summary_id}"

    @property
    def addresses(self) -> list[str]:
        return self.recipients.splitlines()

    @property
    def delivered_addresses(self) -> list[str]:
        return self.delivered.splitlines()

    @property
    def refused_addresses(self) -> list[str]:
        return [line.split(" (", 1)[0] for line in self.refused.splitlines()]

    @property
    def missed(self) -> list[str]:
        """The recipients who have not got it (yet)."""
        took = set(self.delivered_addresses)
        return [address for address in self.addresses if address not in took]

    @property
    def undelivered(self) -> list[str]:
        """The recipients a try still goes to: not taken, and not refused for good."""
        done = {*self.delivered_addresses, *self.refused_addresses}
        return [address for address in self.addresses if address not in done]
