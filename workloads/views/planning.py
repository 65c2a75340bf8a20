"""Planning: projected cost against context length, and when full context becomes affordable for a workload."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from workloads import access, charts
from workloads.planning import project


@login_required
def planning(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk)
    projection = project(workload)
    rows = [(length, {s: values[i] for s, values in (projection.device_dollars or {}).items()},
             {s: values[i] for s, values in projection.flops.items()})
            for i, length in enumerate(projection.lengths)]
    return render(request, "workloads/planning.html", {
        "workload": workload, "projection": projection, "chart": charts.planning(projection), "rows": rows,
    })
