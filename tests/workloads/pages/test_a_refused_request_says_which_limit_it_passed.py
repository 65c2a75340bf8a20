"""A form refused by Django's request limits gets a page that says which limit, and nothing is saved."""

from django.contrib.auth.models import User
from django.urls import reverse

from workloads.models import Probe

from .conftest import html


def test_form_fields_past_10_mib_are_named_as_such(alice_client, workload):
    response = alice_client.post(reverse("member_add"), {"username": "dora", "email": "x" * (10 * 2**20 + 1),
                                                        "role": "member"})

    assert response.status_code == 400
    assert "Its form fields held more than 10.0 MB of text. Documents go through the upload form" in html(response)
    assert not User.objects.filter(username="dora").exists()


def test_more_than_a_thousand_fields_are_named_as_such(alice_client, workload):
    fields = {"question": "Who signs?", "answer": "the CFO"} | {f"extra{i}": "x" for i in range(1000)}

    response = alice_client.post(reverse("probe_create", args=[workload.pk]), fields)

    assert response.status_code == 400
    assert "It sent more than 1,000 form fields." in html(response)
    assert not Probe.objects.exists()
