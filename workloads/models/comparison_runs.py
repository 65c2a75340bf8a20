import datetime as dt
import zoneinfo

from django.conf import settings
from django.db import models
from django.utils import timezone

from engine.core import run_settings
from engine.core.attention_config import AttentionConfig
from workloads.models.periods import period_of

from workloads.models.jobs import UNFINISHED_STATUSES, Job, status_field
from workloads.models.run_setting_columns import RunSettingColumns
from workloads.models.price_book import ApiPrice, GpuPrice
from workloads.models.workloads import Probe, Workload

# A run in one of these stands for its period, whoever started it: the schedule then has nothing to do
# (workloads.reporting.scheduling). A failed or cancelled run does not, so its period can be fired again.
STANDING_STATUSES = ("queued", "running", "succeeded")
# The holder of a sharded run while its shards work (workloads.comparisons.shards): no worker process, so the run's
# lease is never taken for one that died; the last shard to end hands the run back to a worker to merge.
SHARDS_HOLDER = "shards"


class ComparisonRun(Job, RunSettingColumns):
    """One comparison of strategies on a workload: what was asked, how it went, what it measured."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        CANCELLED = "cancelled"

    workload = models.ForeignKey(Workload, on_delete=models.CASCADE, related_name="runs")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    # Who reads the documents: None is the worker's own engine; an endpoint is asked over the OpenAI protocol
    # (engine.strategies.endpoint_compare), with the run's model only as its tokenizer (the same chunks and searches).
    # `reader` keeps the endpoint's name, model and URL as they were when queued, whatever becomes of it.
    endpoint = models.ForeignKey("workloads.Endpoint", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="runs")
    reader = models.CharField(max_length=800, blank=True,
                              help_text='empty for the local engine, else "name (model at URL)"')
    # Runs queued together, one per reader, read side by side (workloads.comparisons.batches); None when alone.
    batch = models.UUIDField(null=True, blank=True, db_index=True)
    # Why it ended before every question was asked (a spending cap reached): its results are the questions every
    # strategy finished.
    stopped = models.TextField(blank=True)

    # What was asked, fixed when the run is queued: the strategies, the model, and the run settings, whose columns
    # (RunSettingColumns) are made from engine.core.run_settings' table.
    strategies = models.JSONField()
    model = models.CharField(max_length=200)
    units_of_work = models.FloatField(help_text="the workload's units when queued: documents or thousand lines")
    # The documents and probes it was queued with, as {"documents": [[pk, name]], "probes": [[pk, question]]}: the
    # worker refuses it if any was deleted while it waited (workloads.comparisons.queued_inputs). None before runs
    # kept them.
    queued_with = models.JSONField(null=True, blank=True)

    # When it belongs: the schedule period its queue date falls in (in the organisation's time zone),
    # and whether a user or the schedule started it.
    class Trigger(models.TextChoices):
        MANUAL = "manual"
        SCHEDULED = "scheduled"

    trigger = models.CharField(max_length=10, choices=Trigger.choices, default=Trigger.MANUAL)
    period = models.CharField(max_length=10, editable=False, help_text='"2027-Q1" for a quarter, "2027-01" for a month')
    period_start = models.DateField(editable=False, help_text="the first day of the period")
    # The organisation's time zone when it was queued: a later change of zone must not move the run to
    # another day, whose prices it was not charged at.
    time_zone = models.CharField(max_length=64, editable=False, default="UTC")

    # How it went.
    status = status_field(Status, db_index=True)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    progress_message = models.CharField(max_length=300, blank=True)

    # What produced it, and the engine's whole report as it came.
    device = models.CharField(max_length=200, blank=True)
    versions = models.JSONField(default=dict, blank=True)
    # The documents it read: name, tokens and SHA-256 of the text each (workloads.documents.document_sets); None before
    # runs kept them.
    documents = models.JSONField(null=True, blank=True)
    report = models.JSONField(null=True, blank=True)

    # The API model it is compared against: the workload's when it was queued. A later change of the workload's
    # choice applies to later runs; re-pricing this one still prices this model.
    api_provider = models.CharField(max_length=100, blank=True)
    api_model = models.CharField(max_length=200, blank=True)

    # Pricing: its latest pricing's price book entries (all its pricings are RunPricing rows), or why it could not
    # be priced.
    gpu_price = models.ForeignKey(GpuPrice, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    api_price = models.ForeignKey(ApiPrice, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    pricing_error = models.TextField(blank=True)
    priced_at = models.DateTimeField(null=True, blank=True)

    # What changed since the previous period's run, per strategy (see workloads.reporting.changes), once priced.
    previous_run = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    changes = models.JSONField(default=dict, blank=True)
    # Per strategy, how far reruns move its cost (workloads.reporting.rerun_spread), recorded with the changes: a
    # change counts only beyond it.
    rerun_spread = models.JSONField(default=dict, blank=True)
    # When its prices or its changes were last recorded: a PDF summary begun before then is out of date.
    compared_at = models.DateTimeField(null=True, blank=True)

    class Meta(Job.Meta):
        constraints = [
            # One scheduled run per reader stands for each period, even if beat fires twice.
            models.UniqueConstraint(fields=["workload", "period", "reader"], name="one_scheduled_run_per_period",
                                    condition=models.Q(trigger="scheduled", status__in=STANDING_STATUSES)),
        ]

    def __str__(self) -> str:
        return f"run {self.pk} of {self.workload}"

    @classmethod
    def handed_on(cls) -> models.Expression:
        """A run whose shards are still queued or running is theirs: each holds its own lease, and is taken over or
        failed on its own; the run itself may wait longer than one job's time limit for all of them."""
        shards = cls._meta.get_field("shards").related_model
        return models.Exists(shards.objects.filter(run=models.OuterRef("pk"), status__in=UNFINISHED_STATUSES))

    def save(self, *args, **kwargs):
        if not self.period:  # the period of the day it is queued, fixed from then on
            period = period_of(self.workload, self.created_at or timezone.now())
            self.period, self.period_start = period.label, period.start
            self.time_zone = self.workload.organisation.timezone
        # Through an endpoint, the API model is the one its tokens are billed at, or none: never the workload's.
        if self._state.adding and not self.reader and not (self.api_provider or self.api_model):
            self.api_provider, self.api_model = self.workload.api_provider, self.workload.api_model
        super().save(*args, **kwargs)

    @property
    def day(self) -> dt.date:
        """The day it was queued, on its organisation's clock then: the day of its period and of its prices."""
        return self.created_at.astimezone(zoneinfo.ZoneInfo(self.time_zone)).date()

    def attention_config(self) -> AttentionConfig:
        """The engine's attention settings for this run's columns; the rest (block size, sink blocks, dense layers)
        are the engine's defaults. Its mode is the engine's default too: each strategy runs, and the ledger counts
        each call, in a mode of its own (`.replace(mode=...)`)."""
        return run_settings.attention(self.settings())

    def settings(self) -> dict:
        """Its run settings by name, as engine.core.run_settings lists them."""
        return {name: getattr(self, name) for name in run_settings.DEFAULTS}

    @property
    def progress_percent(self) -> int:
        return round(100 * self.progress_done / self.progress_total) if self.progress_total else 0


class StrategyResult(models.Model):
    """One strategy's measured cost and quality in a run, as queryable columns."""

    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="results")
    strategy = models.CharField(max_length=40)
    mode = models.CharField(max_length=40)
    refused = models.TextField(blank=True, help_text="why the engine would not run it (e.g. longer than the model)")
    tokens_in = models.PositiveBigIntegerField(default=0)
    tokens_out = models.PositiveBigIntegerField(default=0)
    calls = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0, help_text="measured device seconds")
    wall_seconds = models.FloatField(default=0)
    peak_memory_bytes = models.PositiveBigIntegerField(default=0)
    flops_linear = models.FloatField(default=0)
    flops_attention = models.FloatField(default=0)
    flops_indexer = models.FloatField(default=0)
    flops_total = models.FloatField(default=0)
    bytes_total = models.FloatField(default=0)
    seconds_cpu = models.FloatField(null=True, blank=True,
                                    help_text="on a CPU: computed seconds (process CPU time / threads), the priced time")
    # Seconds per ledger TFLOP over the strategy's questions: the spread says how much the machine's load moved it.
    rate_median = models.FloatField(null=True, blank=True)
    rate_min = models.FloatField(null=True, blank=True)
    rate_max = models.FloatField(null=True, blank=True)
    accuracy = models.FloatField(null=True, blank=True)
    n_probes = models.PositiveIntegerField(default=0)
    # Accuracy's uncertainty (engine.core.stats): Wilson 95% interval, token F1, exact McNemar against the best.
    accuracy_low = models.FloatField(null=True, blank=True)
    accuracy_high = models.FloatField(null=True, blank=True)
    f1 = models.FloatField(null=True, blank=True)
    mcnemar_p = models.FloatField(null=True, blank=True)

    class Gate(models.TextChoices):
        GATED = "gated", "gated"
        WITHIN = "within", "within the gate"
        CANNOT_TELL = "cannot_tell", "cannot tell yet"
        NONE = "none", "nothing to compare against"

    gate = models.CharField(max_length=12, choices=Gate.choices, blank=True,
                            help_text="blank for runs measured before the three-way gate")
    probes_to_tell = models.PositiveIntegerField(null=True, blank=True)
    gated = models.BooleanField(default=False, help_text="more than the run's gate points below the best accuracy")
    top1_agreement = models.FloatField(null=True, blank=True)
    index_overlap = models.FloatField(null=True, blank=True)
    # Through an endpoint: the prompt tokens it billed as cached (of tokens_in, the provider's count), the local
    # tokenizer's count of the same prompts, each call's latency in seconds, and the HTTP attempts its retries took.
    tokens_cached = models.PositiveBigIntegerField(default=0)
    tokens_in_local = models.PositiveBigIntegerField(null=True, blank=True)
    latency_median = models.FloatField(null=True, blank=True)
    latency_p95 = models.FloatField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # Dollars at the run's prices; None until priced, never a silent $0.
    device_dollars = models.FloatField(null=True, blank=True)
    api_dollars = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "strategy"], name="one_result_per_strategy")]
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.strategy} in run {self.run_id}"

    @property
    def retries(self) -> int:
        """Through an endpoint: the requests made again (after a 429, a server error or a timeout)."""
        return max(self.attempts - self.calls, 0)

    @property
    def unit_device_dollars(self) -> float | None:
        units = self.run.units_of_work
        return self.device_dollars / units if self.device_dollars is not None and units else None

    @property
    def unit_api_dollars(self) -> float | None:
        units = self.run.units_of_work
        return self.api_dollars / units if self.api_dollars is not None and units else None


class ProbeAnswer(models.Model):
    result = models.ForeignKey(StrategyResult, on_delete=models.CASCADE, related_name="answers")
    probe = models.ForeignKey(Probe, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    question = models.TextField()
    expected = models.CharField(max_length=500)
    kind = models.CharField(max_length=20)
    output = models.TextField()
    correct = models.BooleanField()
    f1 = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]


class Alert(models.Model):
    """Something a manager should know about a run compared with the previous period's run."""

    class Kind(models.TextChoices):
        COST_UP = "cost_up", "Cost up"
        ACCURACY_DOWN = "accuracy_down", "Accuracy down"
        NOW_GATED = "now_gated", "Fell out of the quality gate"
        NO_LONGER_GATED = "no_longer_gated", "Back inside the quality gate"

    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="alerts")
    previous_run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    strategy = models.CharField(max_length=40)
    message = models.CharField(max_length=500, help_text="one plain sentence with the figures")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "pk"]

    def __str__(self) -> str:
        return self.message
