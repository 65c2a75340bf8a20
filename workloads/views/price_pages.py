"""The price book: effective-dated GPU and API prices, each with its source, and re-pricing runs with them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import ProtectedError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from workloads.comparisons import pricing
from workloads.forms import ApiPriceForm, GpuPriceForm
from workloads.models import ApiPrice, ComparisonRun, GpuPrice, Role
from workloads.organisations import access
from workloads.views.methods import read_only

ERRORS_SHOWN = 10


def _page(request: HttpRequest, organisation, *, gpu_form=None, api_form=None, status: int = 200) -> HttpResponse:
    org_runs = ComparisonRun.objects.filter(workload__organisation=organisation)
    return render(request, "workloads/price_book.html", {
        "gpu_prices": GpuPrice.objects.filter(organisation=organisation),
        "api_prices": ApiPrice.objects.filter(organisation=organisation),
        "gpu_used": set(org_runs.exclude(gpu_price=None).values_list("gpu_price_id", flat=True)),
        "api_used": set(org_runs.exclude(api_price=None).values_list("api_price_id", flat=True)),
        "gpu_form": gpu_form or GpuPriceForm(organisation=organisation),
        "api_form": api_form or ApiPriceForm(organisation=organisation),
    }, status=status)


@login_required
@read_only
def price_book(request: HttpRequest) -> HttpResponse:
    return _page(request, access.organisation_of(request.user))


def _add(request: HttpRequest, form_class, form_name: str) -> HttpResponse:
    organisation = access.organisation_of(request.user, Role.ADMIN)
    form = form_class(request.POST, organisation=organisation)
    if not form.is_valid():
        return _page(request, organisation, **{form_name: form}, status=400)
    entry = form.save()
    messages.success(request, f"Added {entry} to the price book. Re-price runs to apply it to past comparisons.")
    return redirect("price_book")


@login_required
@require_POST
def gpu_price_create(request: HttpRequest) -> HttpResponse:
    return _add(request, GpuPriceForm, "gpu_form")


@login_required
@require_POST
def api_price_create(request: HttpRequest) -> HttpResponse:
    return _add(request, ApiPriceForm, "api_form")


def _delete(request: HttpRequest, model, pk: int) -> HttpResponse:
    entry = get_object_or_404(model, pk=pk, organisation=access.organisation_of(request.user, Role.ADMIN))
    try:
        entry.delete()
    except ProtectedError:
        messages.error(request, f"{entry} prices at least one comparison, so it stays. "
                                "Add a newer entry instead: re-pricing uses the one in force on each run's date.")
    else:
        messages.success(request, f"Deleted {entry}.")
    return redirect("price_book")


@login_required
@require_POST
def gpu_price_delete(request: HttpRequest, pk: int) -> HttpResponse:
    return _delete(request, GpuPrice, pk)


@login_required
@require_POST
def api_price_delete(request: HttpRequest, pk: int) -> HttpResponse:
    return _delete(request, ApiPrice, pk)


@login_required
@require_POST
def reprice_all(request: HttpRequest) -> HttpResponse:
    """Price every succeeded run of the organisation again, with the entries in force on each run's date."""
    organisation = access.organisation_of(request.user, Role.ADMIN)
    succeeded = (ComparisonRun.objects
                 .filter(workload__organisation=organisation, status=ComparisonRun.Status.SUCCEEDED)
                 .select_related("workload__organisation").order_by("created_at", "pk"))
    failed = []
    for run in succeeded:
        pricing.price_run(run, by=request.user)
        if run.pricing_error:
            failed.append(run)
    priced = len(succeeded) - len(failed)
    messages.success(request, f"Priced {priced} run{'s' if priced != 1 else ''}; {len(failed)} could not be priced.")
    for run in failed[:ERRORS_SHOWN]:
        messages.error(request, f"Run {run.pk} of {run.workload.name}: {run.pricing_error}")
    if len(failed) > ERRORS_SHOWN:
        messages.error(request, f"…and {len(failed) - ERRORS_SHOWN} more runs could not be priced.")
    return redirect("price_book")
