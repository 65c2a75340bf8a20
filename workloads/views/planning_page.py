"""Planning: projected cost against context length, and when full context becomes affordable for a workload."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from engine.core.run_settings import name
from workloads.comparisons.planning import project
from workloads.models import ComparisonRun
from workloads.organisations import access
from workloads.reporting import page_charts
from workloads.reporting.recommendation import month, monthly, recommendation
from workloads.views.methods import read_only


@login_required
@read_only
def planning(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk)
    projection = project(workload)
    device = projection.device_dollars or {}
    # One row per context length: whether its rates were measured there (None: one rate for all), then each
    # strategy's device dollars (None when not priced) and ledger FLOPs.
    basis = projection.rate_basis or [None] * len(projection.lengths)
    rows = [(length, basis[i], [(device[s][i] if s in device else None, values[i])
                                for s, values in projection.flops.items()])
            for i, length in enumerate(projection.lengths)]
    measured = projection.measured
    # One row per measured length, (seconds, dollars) per strategy.
    measured_rows = [
        (length, [(measured.seconds[s][i], measured.dollars[s][i] if measured.dollars else None)
                  for s in measured.seconds])
        for i, length in enumerate(measured.lengths)
    ] if measured else []
    run = workload.runs.filter(status=ComparisonRun.Status.SUCCEEDED, reader="").first()
    return render(request, "workloads/planning.html", {
        "workload": workload, "projection": projection, "chart": page_charts.planning(projection), "rows": rows,
        "names": [name(s) for s in projection.flops], "run": run,
        "measured_rows": measured_rows, "measured_names": [name(s) for s in measured.seconds] if measured else [],
        "decision": recommendation(run) if run else None, "monthly": monthly(run) if run else None,
        "month": month(run) if run else [],
    })
