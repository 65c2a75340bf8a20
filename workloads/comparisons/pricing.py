"""Dollars for a run from the price book entries in force on its date.

Prices are never guessed: a model or device with no entry in force is a PricingError,
and the run's dollar columns stay empty (never $0) until the price book has one. A run
compared against no API model has no API dollars, and that is no error. A run through an
endpoint is billed what its replies' usage counted, at the endpoint's API entry, in the
device dollars column that every chart and decision reads (billed_dollars).

Each pricing is kept (RunPricing): the first, when the run finishes, and every re-pricing beside it. A re-pricing
prices the API model the run was queued with, whatever its workload names now, and only admins may ask for one.
"""

from __future__ import annotations

import datetime as dt
import re

from django.db import transaction
from django.dispatch import Signal
from django.urls import reverse

from engine.core.run_settings import CACHED_MODES
from workloads.models import ApiPrice, ComparisonRun, GpuPrice, Organisation, RunPricing, StrategyResult, Workload

# Sent with a run once its pricing is saved, inside the pricing's transaction. The reporting layer records the run's
# changes on it (workloads.signals): pricing, lower in the layers, never imports the reporting.
run_priced = Signal()


class PricingError(ValueError):
    """A price the price book lacks. Its message stays plain text (the database and the API keep it); it names the
    API endpoint that adds the entry, and the pages link its words "the price book" to the price book page."""


def add_with(kind: str) -> str:
    """"POST /api/prices/api": the API endpoint that adds a price book entry of this kind ("gpu" or "api")."""
    return f"POST {reverse(f'api-1:add_{kind}_price')}"


def device_class(organisation: Organisation, device: str, on: dt.date) -> str:
    """The price book's device class that names `device` ("H200" for "NVIDIA H200"), longest first."""
    classes = set(GpuPrice.objects.filter(organisation=organisation, effective_from__lte=on)
                  .values_list("device_class", flat=True))
    named = [c for c in classes if re.search(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])", device, re.IGNORECASE)]
    if not named:
        known = ", ".join(sorted(classes)) or "none yet"
        raise PricingError(f"no GPU price covers the device {device!r} on {on}: add its class to the price book "
                           f"({add_with('gpu')}; classes priced: {known})")
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
        raise PricingError(f"no API price for {model} from {provider} in force on {on}: add one to the price book "
                           f"({add_with('api')})")
    return entry


def workload_api_price(workload: Workload, on: dt.date) -> ApiPrice | None:
    """The price in force on `on` of the API model the workload is compared against; None when it chose none."""
    if not (workload.api_provider or workload.api_model):
        return None
    return api_price(workload.organisation, workload.api_provider, workload.api_model, on)


def run_api_price(run: ComparisonRun, on: dt.date) -> ApiPrice | None:
    """The price in force on `on` of the API model the run was queued with; None when it had none."""
    if not (run.api_provider or run.api_model):
        return None
    return api_price(run.workload.organisation, run.api_provider, run.api_model, on)


def api_models(organisation: Organisation, on: dt.date) -> list[ApiPrice]:
    """One entry per (provider, model) pair of the price book, to choose from: the one in force on `on`, or, for a
    pair priced only from a later date, its first entry."""
    chosen: dict[tuple[str, str], ApiPrice] = {}
    for entry in ApiPrice.objects.filter(organisation=organisation).order_by("provider", "model", "-effective_from"):
        pair = (entry.provider, entry.model)
        if pair not in chosen or chosen[pair].effective_from > on:  # newest first: a later entry gives way
            chosen[pair] = entry
    return list(chosen.values())


def api_choice_error(organisation: Organisation, provider: str, model: str) -> str | None:
    """Why (provider, model) cannot be a workload's API model, or None: it must be a pair of the price book's API
    entries, or both empty for no API comparison."""
    if not (provider or model):
        return None
    if ApiPrice.objects.filter(organisation=organisation, provider=provider, model=model).exists():
        return None
    pairs = sorted({f"{p} {m}" for p, m in ApiPrice.objects.filter(organisation=organisation)
                    .values_list("provider", "model")})
    return (f"the price book has no API model {model!r} from {provider!r}; it has "
            f"{', '.join(pairs) if pairs else 'none yet'}")


def api_dollars(result: StrategyResult, api: ApiPrice, prefix_tokens: int) -> float:
    """What the API would bill for the result's tokens. A cached strategy counted the documents' prefix once; an
    API bills it on every question: in full on the first (the provider writes its cache), then at the cached-input
    price (at the input price where the price book knows no cached price)."""
    per_in = float(api.input_per_mtok)
    cached = float(api.cached_input_per_mtok) if api.cached_input_per_mtok is not None else per_in
    again = prefix_tokens * max(result.n_probes - 1, 0) * cached
    return (result.tokens_in * per_in + again + result.tokens_out * float(api.output_per_mtok)) / 1e6


def billed_dollars(tokens_in: int, tokens_cached: int, tokens_out: int, price: ApiPrice) -> float:
    """What an endpoint bills for the tokens its replies' usage counted: the cached part of the input at the cached
    price (at the input price where the price book knows none), the rest at the input price."""
    per_in = float(price.input_per_mtok)
    cached = float(price.cached_input_per_mtok) if price.cached_input_per_mtok is not None else per_in
    return ((tokens_in - tokens_cached) * per_in + tokens_cached * cached
            + tokens_out * float(price.output_per_mtok)) / 1e6


def _prefix_tokens(run: ComparisonRun, strategy: str) -> int:
    """The documents' tokens a cached strategy prefilled once (0 for the others, and for reports without it)."""
    reported = ((run.report or {}).get("strategies") or {}).get(strategy) or {}
    return (reported.get("prefix_tokens") or 0) if strategy in CACHED_MODES else 0


def price_run(run: ComparisonRun, by=None) -> RunPricing:
    """Price every result of a finished run with the entries in force on the run's date, as a new pricing kept
    beside the run's earlier ones (the first is its original; `by` is who asked for a re-pricing). The run's dollar
    columns become this pricing's; then `run_priced` is sent, in the same transaction, for what changed since the
    previous period's run to be recorded (workloads.signals)."""
    workload = run.workload
    on = run.day
    with transaction.atomic():
        # The run's row first: two re-pricings at once are kept one after the other, and only one is the original.
        ComparisonRun.objects.select_for_update().filter(pk=run.pk).first()
        results = list(run.results.select_for_update())
        kind = RunPricing.Kind.REPRICING if run.pricings.exists() else RunPricing.Kind.ORIGINAL
        try:
            # Through an endpoint the device is the provider's: its tokens are billed at the endpoint's API entry.
            gpu = None if run.reader else gpu_price(workload.organisation, run.device, on)
            api = run_api_price(run, on)
            if run.reader and api is None:
                raise PricingError(f"the endpoint {run.reader} is billed at no price-book entry")
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
                if run.reader:  # what the endpoint billed, in the column every chart and decision reads
                    r.device_dollars, r.api_dollars = billed_dollars(r.tokens_in, r.tokens_cached, r.tokens_out,
                                                                     api), None
                    continue
                r.device_dollars = r.seconds / 3600 * float(gpu.per_hour)
                r.api_dollars = None if api is None else api_dollars(r, api, _prefix_tokens(run, r.strategy))
        for r in results:
            r.save(update_fields=["device_dollars", "api_dollars"])
        kept = RunPricing.objects.create(
            run=run, kind=kind, created_by=by, gpu_price=run.gpu_price, api_price=run.api_price,
            api_provider=run.api_provider, api_model=run.api_model, error=run.pricing_error,
            dollars={r.strategy: {"device_dollars": r.device_dollars, "api_dollars": r.api_dollars} for r in results})
        run.priced_at = kept.created_at
        run.save(update_fields=["gpu_price", "api_price", "pricing_error", "priced_at"])
        run_priced.send(sender=ComparisonRun, run=run)
    return kept
