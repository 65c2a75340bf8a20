"""Each reply an endpoint gave a run, kept as it arrives: a run taken over from a dead worker asks again only what
was never answered (engine.strategies.endpoint_compare's `answered`), and the organisation's spending this month is
the sum of what its calls were billed."""

from django.db import models

from workloads.models.comparison_runs import ComparisonRun


class EndpointCall(models.Model):
    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="endpoint_calls")
    # The strategy, the question, the call's place and a digest of its message: a changed message is a new call.
    key = models.CharField(max_length=200)
    reply = models.JSONField(help_text="engine.remote.client.Reply's fields: the text, usage, latency and attempts")
    dollars = models.FloatField(null=True, blank=True,
                                help_text="what it was billed, at the run's price-book entry; null: none")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "key"], name="one_reply_per_call")]
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.key} in run {self.run_id}"
