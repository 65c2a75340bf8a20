"""An admin caps what comparisons through endpoints may spend, per run and per month, on the organisation page;
every member reads the caps there and on the endpoints page, and empty is no cap, never $0."""

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Organisation
from workloads.models.organisations import ENDPOINT_RUN_CAP_HELP

SETTINGS = {"timezone": "Europe/Berlin", "summary_recipients": ""}


def test_an_admin_sets_both_caps(alice_client, acme):
    response = alice_client.post(reverse("organisation_edit"), {**SETTINGS, "endpoint_run_cap": "2.50",
                                                                "endpoint_month_cap": "100"}, follow=True)

    acme.refresh_from_db()
    assert (acme.endpoint_run_cap, acme.endpoint_month_cap) == (Decimal("2.50"), Decimal("100.00"))
    assert "Endpoint spending caps: $2.50 per run, $100.00 per month." in html(response)
    assert "per run $2.50, per month $100.00." in html(alice_client.get(reverse("endpoints")))


def test_the_form_explains_the_caps(alice_client):
    page = html(alice_client.get(reverse("organisation_edit")))

    assert ENDPOINT_RUN_CAP_HELP in page
    assert "A comparison through an endpoint whose estimate exceeds this does not start; one that reaches it stops " \
           "with what it has." in page
    assert 'name="endpoint_run_cap"' in page and 'name="endpoint_month_cap"' in page


def test_empty_is_no_cap(alice_client, acme):
    acme.endpoint_run_cap = Decimal("5")
    acme.save()

    response = alice_client.post(reverse("organisation_edit"), {**SETTINGS, "endpoint_run_cap": "",
                                                                "endpoint_month_cap": ""}, follow=True)

    acme.refresh_from_db()
    assert (acme.endpoint_run_cap, acme.endpoint_month_cap) == (None, None)
    assert "Endpoint spending caps: none per run, none per month." in html(response)


@pytest.mark.parametrize("cap, message", [
    ("-1", "Ensure this value is greater than or equal to 0."),
    ("ten", "Enter a number."),
    ("1.234", "Ensure that there are no more than 2 decimal places."),
    ("1" * 10_000, "Ensure that there are no more than 10 digits in total."),
])
def test_a_bad_cap_is_refused(alice_client, acme, cap, message):
    response = alice_client.post(reverse("organisation_edit"), {**SETTINGS, "endpoint_month_cap": cap})

    assert response.status_code == 400 and message in html(response)
    assert Organisation.objects.values_list("timezone", "endpoint_month_cap").get(pk=acme.pk) == ("UTC", None)


def test_only_an_admin_sets_them_and_a_viewer_reads_them(acme, bob, vera):
    acme.endpoint_run_cap, acme.endpoint_month_cap = Decimal("3"), None
    acme.save()
    for user in (bob, vera):
        client = Client()
        client.force_login(user)
        assert client.post(reverse("organisation_edit"), {**SETTINGS, "endpoint_run_cap": "1000"}).status_code == 403
        page = html(client.get(reverse("organisation_edit")))
        assert "<dt>Endpoint spending cap per run</dt><dd>$3.00</dd>" in page
        assert "<dt>Endpoint spending cap per month</dt><dd>none</dd>" in page
        assert 'name="endpoint_run_cap"' not in page
    acme.refresh_from_db()
    assert acme.endpoint_run_cap == Decimal("3")
