"""Every pricing of a run, kept: the one made when it finished and each re-pricing beside it, never overwritten.

A run's dollar columns (StrategyResult.device_dollars and api_dollars, and the run's gpu_price and api_price) are
its latest pricing's, which every chart, comparison and summary reads; the pricings before it stay here, each with
the entries and API model it used, so a page can show what a run cost before someone re-priced it.
"""

from django.conf import settings
from django.db import models

from workloads.models.comparison_runs import ComparisonRun
from workloads.models.price_book import ApiPrice, GpuPrice


class RunPricing(models.Model):
    class Kind(models.TextChoices):
        ORIGINAL = "original", "Priced when it finished"
        REPRICING = "repricing", "Re-priced"
        # Runs priced before pricings were kept: their one pricing, as it stood then.
        CARRIED_OVER = "carried_over", "Priced before pricings were kept"

    run = models.ForeignKey(ComparisonRun, on_delete=models.CASCADE, related_name="pricings")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    # What it was priced with: the entries (never deleted while a pricing uses them) and the API model, which is the
    # run's, not whatever its workload names today.
    gpu_price = models.ForeignKey(GpuPrice, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    api_price = models.ForeignKey(ApiPrice, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    api_provider = models.CharField(max_length=100, blank=True)
    api_model = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True, help_text="why it could not be priced; empty when it was")
    # Per strategy: {"chunked": {"device_dollars": 0.0012, "api_dollars": 0.0003}}; None where a figure has no price.
    dollars = models.JSONField(default=dict)

    class Meta:
        ordering = ["run", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.label} (run {self.run_id})"

    @property
    def label(self) -> str:
        """"Re-priced by alice on 4 Dec 2026 14:03": what it is, who made it and when (the organisation's clock)."""
        from django.utils import timezone
        from django.utils.dateformat import format as format_date

        when = format_date(timezone.localtime(self.created_at), "j M Y H:i")
        by = f" by {self.created_by.username}" if self.created_by else ""
        return f"{self.get_kind_display()}{by} on {when}"
