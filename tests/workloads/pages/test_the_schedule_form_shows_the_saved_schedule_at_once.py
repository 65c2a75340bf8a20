"""The workload page's schedule form is rendered once per process for the values it shows (workloads.forms
instance_html), and shows a schedule saved a moment ago, never the one before it."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.forms import ScheduleForm, instance_html
from workloads.models import Workload


def _form(client, workload) -> str:
    page = html(client.get(reverse("workload_detail", args=[workload.pk])))
    return page.split("<summary>Change the schedule and alerts</summary>", 1)[1].split("</form>", 1)[0]


def test_the_form_is_the_one_django_renders_for_the_workload(workload):
    assert instance_html(ScheduleForm, workload) == str(ScheduleForm(instance=workload))


def test_a_saved_schedule_shows_on_the_next_view(alice_client, workload):
    assert 'name="schedule_hour" value="6"' in _form(alice_client, workload)

    Workload.objects.filter(pk=workload.pk).update(schedule=Workload.Schedule.MONTHLY, schedule_hour=22,
                                                   alert_cost_percent=12.5)
    form = _form(alice_client, workload)
    assert 'name="schedule_hour" value="22"' in form and 'name="alert_cost_percent" value="12.5"' in form
    assert '<option value="monthly" selected>' in form and '<option value="quarterly" selected>' not in form
