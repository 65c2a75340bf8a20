"""Each call this worker's engine made for a run, kept as it completes (engine.strategies.compare's `keep`): a run
taken over from a dead worker, or retried after a failure, makes only the calls never answered and bills the others
as they were measured. Kept per device, since seconds measured on one machine do not price another's."""

from django.db import models

from workloads.models.comparison_runs import ComparisonRun


class EngineCall(models.Model):
    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="engine_calls")
    # The strategy, the question, the call's place and a digest of its prompt: a changed prompt is a new call.
    key = models.CharField(max_length=200)
    device = models.CharField(max_length=200)
    kept = models.JSONField(help_text="the answer's text and its bill (engine.strategies.compare.CallBill's fields)")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "device", "key"], name="one_answer_per_engine_call")]
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.key} in run {self.run_id}"
