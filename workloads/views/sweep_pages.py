"""Group-size sweeps: how many layers can share one indexer for this workload (engine.evaluation.group_sweep)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from workloads.comparisons import sweep_starting
from workloads.models import Role
from workloads.organisations import access
from workloads.reporting import page_charts
from workloads.views.methods import read_only


@login_required
@require_POST
def sweep_create(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    try:
        sweep = sweep_starting.start_sweep(workload, request.user)
    except ValidationError as exc:
        messages.error(request, f"No sweep started: {exc.messages[0]}.")
        return redirect("workload_detail", pk=workload.pk)
    messages.success(request, "Sweep queued: every probe is asked at each group size, one size after another.")
    return redirect("sweep_detail", pk=sweep.pk)


@login_required
@read_only
def sweep_detail(request: HttpRequest, pk: int) -> HttpResponse:
    sweep = access.sweep_for(request.user, pk)
    points = sweep_starting.arms(sweep.report)
    kinds, kind_rows = sweep_starting.kinds(points)
    return render(request, "workloads/sweep_detail.html", {
        "sweep": sweep, "workload": sweep.workload, "sentence": sweep_starting.recommendation(sweep),
        "points": points, "kinds": kinds, "kind_rows": kind_rows,
        "charts": [page_charts.group_sweep(sweep, "flops"), page_charts.group_sweep(sweep, "seconds")],
    })


@login_required
@require_POST
def sweep_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    sweep = access.sweep_for(request.user, pk, Role.MEMBER)
    if sweep_starting.cancel_sweep(sweep):
        messages.success(request, "Cancelled. A running sweep stops before its next question and keeps no report.")
    else:
        messages.info(request, "This sweep had already finished, so there was nothing to cancel.")
    return redirect("sweep_detail", pk=sweep.pk)


@login_required
@require_POST
def sweep_retry(request: HttpRequest, pk: int) -> HttpResponse:
    sweep = access.sweep_for(request.user, pk, Role.MEMBER)
    try:
        retried = sweep_starting.retry_sweep(sweep)
    except ValidationError as exc:
        messages.error(request, f"Not queued again: {exc.messages[0]}.")
        return redirect("sweep_detail", pk=sweep.pk)
    if retried:
        messages.success(request, "Queued again at the same group sizes and settings.")
    else:
        messages.info(request, "Only a failed or cancelled sweep can be tried again.")
    return redirect("sweep_detail", pk=sweep.pk)
