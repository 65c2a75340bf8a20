"""One shard of a comparison run: a set of its questions, asked with every strategy by one worker
(workloads.comparisons.shards). A run of more than RUN_SHARD_QUESTIONS probes is split into shards, each a job of its
own with its own lease and heartbeat, so that a dead worker costs only its shard; the calls a shard makes are kept as
the run's EngineCalls, and the run's report is merged from them once every shard is done."""

from django.db import models

from workloads.models.comparison_runs import ComparisonRun
from workloads.models.jobs import DoneStatus, Job, status_field


class RunShard(Job):
    Status = DoneStatus

    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="shards")
    index = models.PositiveIntegerField()
    # The probes it asks: indices into the run's probes as workloads.comparisons.queued_inputs.read orders them.
    questions = models.JSONField()
    status = status_field(DoneStatus, db_index=True)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)

    class Meta(Job.Meta):
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_shard_per_run_and_index")]
        ordering = ["run", "index"]

    def __str__(self) -> str:
        return f"shard {self.index} of run {self.run_id}"
