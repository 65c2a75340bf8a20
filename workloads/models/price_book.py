"""The price book: effective-dated prices per organisation, each with its source.

A run is priced with the entries in force on its date: for each key, the entry with
the latest `effective_from` on or before that date.
"""

from django.db import models
from django.utils.dateformat import format as format_date

from workloads.formatting import dollars
from workloads.models.organisations import Organisation


class PriceEntry(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="+")
    effective_from = models.DateField()
    source = models.CharField(max_length=500, help_text="where this price comes from: a quote, an invoice, a web page")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    @property
    def since(self) -> str:
        """"from 1 Jan 2026", as the price book page shows the date."""
        return f"from {format_date(self.effective_from, 'j M Y')}"


class GpuPrice(PriceEntry):
    device_class = models.CharField(max_length=50, help_text='"cpu", "H200", "H100", "A100", "L4" ...')
    per_hour = models.DecimalField(max_digits=10, decimal_places=4)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["organisation", "device_class", "effective_from"],
                                               name="one_gpu_price_per_day")]
        ordering = ["device_class", "-effective_from"]

    @property
    def subject(self) -> str:
        """What it prices: the device class."""
        return self.device_class

    def __str__(self) -> str:
        # Dollars as every page shows them ("$0.10", not the column's "$0.1000"): messages and the dashboard use this.
        return f"{self.subject} at {dollars(self.per_hour)} an hour {self.since}"


class ApiPrice(PriceEntry):
    provider = models.CharField(max_length=100)
    model = models.CharField(max_length=200)
    input_per_mtok = models.DecimalField(max_digits=10, decimal_places=4)
    # For a strategy that re-sends a cached document prefix; empty means no cache discount is known (never $0).
    cached_input_per_mtok = models.DecimalField(max_digits=10, decimal_places=4, null=True, blank=True,
                                                help_text="dollars per million cached input tokens; "
                                                          "empty: no cache discount known")
    output_per_mtok = models.DecimalField(max_digits=10, decimal_places=4)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["organisation", "provider", "model", "effective_from"],
                                               name="one_api_price_per_day")]
        ordering = ["provider", "model", "-effective_from"]

    @property
    def rates(self) -> str:
        """"$0.15 in / $0.60 out per M tokens", as the workload form's choice of API model shows it."""
        cached = "" if self.cached_input_per_mtok is None else f" / {dollars(self.cached_input_per_mtok)} cached"
        return f"{dollars(self.input_per_mtok)} in{cached} / {dollars(self.output_per_mtok)} out per M tokens"

    @property
    def subject(self) -> str:
        """What it prices: the provider's model."""
        return f"{self.provider} {self.model}"

    def __str__(self) -> str:
        return (f"{self.subject} at {dollars(self.input_per_mtok)} in and "
                f"{dollars(self.output_per_mtok)} out per million tokens {self.since}")
