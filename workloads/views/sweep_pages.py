"""Group-size sweeps: how many layers can share one indexer for this workload (engine.evaluation.group_sweep)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from workloads.comparisons import sweep_starting
from workloads.models import GroupSweep, Role
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
    sweep = get_object_or_404(GroupSweep.objects.select_related("workload"), pk=pk,
                              workload__organisation=access.organisation_of(request.user))
    points = sweep_starting.arms(sweep.report)
    kinds, kind_rows = sweep_starting.kinds(points)
    return render(request, "workloads/sweep_detail.html", {
        "sweep": sweep, "workload": sweep.workload, "sentence": sweep_starting.recommendation(sweep),
        "points": points, "kinds": kinds, "kind_rows": kind_rows,
        "charts": [page_charts.group_sweep(sweep, "flops"), page_charts.group_sweep(sweep, "seconds")],
    })
