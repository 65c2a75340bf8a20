"""A workload's schedule and alert thresholds, and firing a period again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from workloads.forms import ScheduleForm
from workloads.models import Role
from workloads.organisations import access
from workloads.reporting import scheduling
from workloads.views.methods import form_page
from workloads.views.outcomes import form_response, posted


@login_required
@form_page
def schedule_edit(request: HttpRequest, pk: int) -> HttpResponse:
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    form = ScheduleForm(posted(request), instance=workload)
    if request.method == "POST" and form.is_valid():
        # Only the form's columns: a run started meanwhile may have saved new run settings.
        form.save(commit=False).save(update_fields=ScheduleForm.Meta.fields)
        messages.success(request, "Saved the schedule.")
        return redirect("workload_detail", pk=workload.pk)
    return form_response(request, "workloads/schedule_form.html", {"workload": workload, "form": form})


@login_required
@require_POST
def schedule_fire(request: HttpRequest, pk: int) -> HttpResponse:
    """Fire this period's schedule again, after its firing was skipped or its run failed or was cancelled."""
    workload = access.workload_for(request.user, pk, Role.MEMBER)
    now = timezone.now()
    period = scheduling.refirable_period(workload, now)
    if period is None:
        messages.info(request, "Nothing to fire again: this period's comparison is queued, running or done, "
                               "or the schedule is off or has not fired yet.")
    else:
        event = scheduling.fire(workload, now, user=request.user)
        if event.run is None:
            messages.error(request, f"Fired {period} again, but queued nothing: {event.reason}")
        else:
            messages.success(request, f"Queued run {event.run.pk} as {period}'s scheduled comparison.")
    return redirect("workload_detail", pk=workload.pk)
