"""The price book: effective-dated prices per organisation, each with its source.

A run is priced with the entries in force on its date: for each key, the entry with
the latest `effective_from` on or before that date.
"""

from django.db import models

from workloads.models.organisations import Organisation


class PriceEntry(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="+")
    effective_from = models.DateField()
    source = models.CharField(max_length=500, help_text="where this price comes from: a quote, an invoice, a web page")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class GpuPrice(PriceEntry):
    device_class = models.CharField(max_length=50, help_text='"cpu", "H200", "H100", "A100", "L4" ...')
    per_hour = models.DecimalField(max_digits=10, decimal_places=4)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["organisation", "device_class", "effective_from"],
                                               name="one_gpu_price_per_day")]
        ordering = ["device_class", "-effective_from"]

    def __str__(self) -> str:
        return f"{self.device_class} ${self.per_hour}/h from {self.effective_from}"


class ApiPrice(PriceEntry):
    provider = models.CharField(max_length=100)
    model = models.CharField(max_length=200)
    input_per_mtok = models.DecimalField(max_digits=10, decimal_places=4)
    output_per_mtok = models.DecimalField(max_digits=10, decimal_places=4)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["organisation", "provider", "model", "effective_from"],
                                               name="one_api_price_per_day")]
        ordering = ["provider", "model", "-effective_from"]

    def __str__(self) -> str:
        return (f"{self.provider} {self.model} ${self.input_per_mtok}/${self.output_per_mtok} "
                f"per M from {self.effective_from}")
