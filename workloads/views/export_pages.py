"""Downloads of a run, and of a workload's history, as CSV and JSON files for the logged-in user.

A workload's history as CSV is the runs CSV (views.runs.runs_csv), served at history.csv too.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse

from workloads.organisations import access
from workloads.reporting import data_exports
from workloads.views.methods import read_only


@login_required
@read_only
def run_export_csv(request: HttpRequest, pk: int) -> HttpResponse:
    run = access.run_for(request.user, pk)
    return data_exports.download(data_exports.run_csv(run), "text/csv", f"run-{run.pk}.csv")


@login_required
@read_only
def run_export_json(request: HttpRequest, pk: int) -> HttpResponse:
    run = access.run_for(request.user, pk)
    return data_exports.download(data_exports.run_json(run), "application/json", f"run-{run.pk}.json")


@login_required
@read_only
def workload_history_json(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk)
    return data_exports.download(data_exports.history_json(workload), "application/json",
                                 f"workload-{workload.pk}-history.json")
