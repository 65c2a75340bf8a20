"""The schedule and time-zone forms save good input, refuse bad input with a 400 and a message, and guard other orgs."""

import pytest
from django.urls import reverse
from django_celery_beat.models import PeriodicTask

from workloads.models import Organisation, Workload

GOOD = {"schedule": "monthly", "schedule_hour": "22", "alert_cost_percent": "12.5", "alert_accuracy_points": "3"}


def test_it_saves_the_schedule_and_moves_the_beat_entry(alice_client, workload):
    workload.run_settings = {"strategies": ["chunked"]}
    workload.save(update_fields=["run_settings"])
    form = alice_client.get(reverse("schedule_edit", args=[workload.pk]))
    assert form.status_code == 200 and 'name="schedule_hour" value="6"' in form.content.decode()
    response = alice_client.post(reverse("schedule_edit", args=[workload.pk]), GOOD)

    assert response.status_code == 302 and response.url == reverse("workload_detail", args=[workload.pk])
    workload.refresh_from_db()
    assert (workload.schedule, workload.schedule_hour, workload.alert_cost_percent, workload.alert_accuracy_points) == (
        "monthly", 22, 12.5, 3)
    assert workload.run_settings == {"strategies": ["chunked"]}
    cron = workload.periodic_task.crontab
    assert (cron.hour, cron.month_of_year) == ("22", "*")


@pytest.mark.parametrize("change, message", [
    ({"schedule_hour": "24"}, "Ensure this value is less than or equal to 23."),
    ({"schedule_hour": "-1"}, "Ensure this value is greater than or equal to 0."),
    ({"schedule_hour": "abc"}, "Enter a whole number."),
    ({"schedule_hour": ""}, "This field is required."),
    ({"schedule": "weekly"}, "Select a valid choice. weekly is not one of the available choices."),
    ({"alert_cost_percent": "-5"}, "Ensure this value is greater than or equal to 0."),
    ({"alert_cost_percent": "1e308"}, "Ensure this value is less than or equal to 10000."),
    ({"alert_accuracy_points": "nan"}, "Enter a number."),
    ({"alert_accuracy_points": "101"}, "Ensure this value is less than or equal to 100."),
])
def test_bad_schedule_input_is_refused_with_nothing_saved(alice_client, workload, change, message):
    task = workload.periodic_task
    response = alice_client.post(reverse("schedule_edit", args=[workload.pk]), {**GOOD, **change})

    assert response.status_code == 400
    assert message in response.content.decode()
    saved = Workload.objects.get(pk=workload.pk)
    assert (saved.schedule, saved.schedule_hour, saved.alert_cost_percent, saved.alert_accuracy_points) == (
        "quarterly", 6, 10, 5)
    assert PeriodicTask.objects.get(pk=task.pk).crontab_id == task.crontab_id


def test_it_saves_the_time_zone_and_moves_every_entry(alice_client, workload):
    response = alice_client.post(reverse("organisation_edit"), {"timezone": "Asia/Kolkata"})

    assert response.status_code == 302
    assert Organisation.objects.get(pk=workload.organisation_id).timezone == "Asia/Kolkata"
    workload.refresh_from_db()
    assert str(workload.periodic_task.crontab.timezone) == "Asia/Kolkata"
    page = alice_client.get(reverse("workload_detail", args=[workload.pk])).content.decode()
    assert "at 06:00 Asia/Kolkata" in page and "+05:30" in page


def test_the_time_zone_page_offers_the_iana_names(alice_client, workload):
    page = alice_client.get(reverse("organisation_edit")).content.decode()
    assert '<option value="America/New_York" selected>' in page and '<option value="Europe/Berlin">' in page
    assert 'value="localtime"' not in page and 'value="Factory"' not in page


@pytest.mark.parametrize("value, message", [
    ("Mars/Olympus_Mons", "&#x27;Mars/Olympus_Mons&#x27; is not a time zone name such as Europe/Berlin"),
    ("", "This field is required."),
    ("<script>alert(1)</script>", "&#x27;&lt;script&gt;alert(1)&lt;/script&gt;&#x27; is not a time zone name"),
    ("Europe/" + "x" * 200, "Ensure this value has at most 64 characters"),
    ("localtime", "&#x27;localtime&#x27; is not a time zone name"),  # the server's own zone, whatever it is
    ("Factory", "&#x27;Factory&#x27; is not a time zone name"),
])
def test_an_unknown_time_zone_is_refused_with_nothing_saved(alice_client, workload, value, message):
    task = workload.periodic_task
    response = alice_client.post(reverse("organisation_edit"), {"timezone": value})

    assert response.status_code == 400
    assert message in response.content.decode() and "<script>alert" not in response.content.decode()
    assert Organisation.objects.get(pk=workload.organisation_id).timezone == "America/New_York"
    assert PeriodicTask.objects.get(pk=task.pk).crontab_id == task.crontab_id


def test_charlie_cannot_touch_acmes_schedule(charlie_client, workload):
    url = reverse("schedule_edit", args=[workload.pk])
    assert charlie_client.get(url).status_code == 404
    assert charlie_client.post(url, GOOD).status_code == 404
    assert Workload.objects.get(pk=workload.pk).schedule == "quarterly"


def test_charlie_sets_only_his_own_time_zone(charlie_client, charlie, workload):
    assert charlie_client.post(reverse("organisation_edit"), {"timezone": "Asia/Tokyo"}).status_code == 302
    assert Organisation.objects.get(pk=charlie.membership.organisation_id).timezone == "Asia/Tokyo"
    assert Organisation.objects.get(pk=workload.organisation_id).timezone == "America/New_York"


def test_the_pages_need_a_login_and_an_organisation(client, workload, django_user_model):
    for url in (reverse("schedule_edit", args=[workload.pk]), reverse("organisation_edit")):
        response = client.post(url, GOOD)
        assert response.status_code == 302 and response.url.startswith(reverse("login")), url
    client.force_login(django_user_model.objects.create_user("drifter"))
    assert client.post(reverse("organisation_edit"), {"timezone": "Asia/Tokyo"}).status_code == 403
