"""The admin lists schedule firings without letting anyone edit them, and shows each workload's schedule."""

from django.urls import reverse

from workloads.models import ScheduleEvent


def test_firings_are_listed_but_not_editable(admin_client, workload):
    event = ScheduleEvent.objects.create(workload=workload, period="2026-Q4", outcome="skipped",
                                         reason="The schedule is off.")
    listing = admin_client.get(reverse("admin:workloads_scheduleevent_changelist"))
    assert listing.status_code == 200 and "The schedule is off." in listing.content.decode()
    assert admin_client.get(reverse("admin:workloads_scheduleevent_add")).status_code == 403
    admin_client.post(reverse("admin:workloads_scheduleevent_change", args=[event.pk]), {"reason": "edited"})
    admin_client.post(reverse("admin:workloads_scheduleevent_delete", args=[event.pk]), {"post": "yes"})
    assert ScheduleEvent.objects.get(pk=event.pk).reason == "The schedule is off."


def test_the_workload_list_shows_schedules_and_their_beat_entries(admin_client, workload):
    page = admin_client.get(reverse("admin:workloads_workload_changelist")).content.decode()
    assert "column-schedule_hour" in page and f"comparison of workload {workload.pk}" in page
