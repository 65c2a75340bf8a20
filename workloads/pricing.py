"""Dollars for a run from the price book entries in force on its date.

Prices are never guessed: a model or device with no entry in force is a PricingError,
and the run's dollar columns stay empty (never $0) until the price book has one.
"""

from __future__ import annotations

import datetime as dt
import re

from django.db import transaction
from django.utils import timezone

from workloads.changes import record_changes
from workloads.models import ApiPrice, ComparisonRun, GpuPrice, Organisation


class PricingError(ValueError):
    pass


def device_class(organisation: Organisation, device: str, on: dt.date) -> str:
    """The price book's device class that names `device` ("H200" for "NVIDIA H200"), longest first."""
    classes = set(GpuPrice.objects.filter(organisation=organisation, effective_from__lte=on)
                  .values_list("device_class", flat=True))
    named = [c for c in classes if re.search(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])", device, re.IGNORECASE)]
    if not named:
        known = ", ".join(sorted(classes)) or "none yet"
        raise PricingError(f"no GPU price covers the device {device!r} on {on}: add its class to the price book "
                           f"(classes priced: {known})")
    return max(named, key=lambda c: (len(c), c))  # the most specific class; a tie is broken by name, not chance


def gpu_price(organisation: Organisation, device: str, on: dt.date) -> GpuPrice:
    cls = device_class(organisation, device, on)
    # A class matches devices whatever its case, so its entries are found the same way.
    return (GpuPrice.objects.filter(organisation=organisation, device_class__iexact=cls, effective_from__lte=on)
            .order_by("-effective_from", "-pk").first())


def spelled_as_before(organisation: Organisation, device_class: str) -> str:
    """A new entry's device class as the price book already spells it ("H200" for "h200"): one class, one name."""
    known = GpuPrice.objects.filter(organisation=organisation, device_class__iexact=device_class)
    return known.values_list("device_class", flat=True).first() or device_class


def api_price(organisation: Organisation, provider: str, model: str, on: dt.date) -> ApiPrice:
    entry = (ApiPrice.objects.filter(organisation=organisation, provider=provider, model=model, effective_from__lte=on)
             .order_by("-effective_from").first())
    if entry is None:
        raise PricingError(f"no API price for {model} from {provider} in force on {on}: add one to the price book")
    return entry


def price_run(run: ComparisonRun) -> None:
    """(Re-)price every result of a finished run with the entries in force on the run's date,
    then record what changed since the previous period's run."""
    workload = run.workload
    on = run.day
    with transaction.atomic():
        results = list(run.results.select_for_update())
        try:
            gpu = gpu_price(workload.organisation, run.device, on)
            api = api_price(workload.organisation, workload.api_provider, run.model, on)
        except PricingError as exc:
            run.gpu_price = run.api_price = None
            run.pricing_error = str(exc)
            for r in results:
                r.device_dollars = r.api_dollars = None
        else:
            run.gpu_price, run.api_price, run.pricing_error = gpu, api, ""
            for r in results:
                if r.refused:
                    continue
                r.device_dollars = r.seconds / 3600 * float(gpu.per_hour)
                r.api_dollars = (r.tokens_in * float(api.input_per_mtok)
                                 + r.tokens_out * float(api.output_per_mtok)) / 1e6
        for r in results:
            r.save(update_fields=["device_dollars", "api_dollars"])
        run.priced_at = timezone.now()
        run.save(update_fields=["gpu_price", "api_price", "pricing_error", "priced_at"])
        record_changes(run)
