"""The organisation page keeps who is e-mailed the PDF summaries: real addresses only, once each, at most 20."""

import pytest
from django.urls import reverse

from workloads.models import Organisation


def post(client, recipients: str, timezone: str = "Europe/Berlin"):
    return client.post(reverse("organisation_edit"), {"timezone": timezone, "summary_recipients": recipients})


def test_every_page_links_to_the_organisation_page(alice_client, acme):
    assert f'<a href="{reverse("organisation_edit")}">Organisation</a>' in alice_client.get(
        reverse("dashboard")).content.decode()


def test_it_keeps_each_address_once_one_per_line(alice_client, acme):
    response = post(alice_client, " cfo@acme.example, ops@acme.example;\n\ncfo@acme.example  ceo@acme.example ")

    assert response.status_code == 302
    acme.refresh_from_db()
    assert acme.summary_recipients == "cfo@acme.example\nops@acme.example\nceo@acme.example"
    assert acme.timezone == "Europe/Berlin"
    page = alice_client.get(response.url).content.decode()
    assert "e-mailed to cfo@acme.example, ops@acme.example, ceo@acme.example" in page
    assert "cfo@acme.example\nops@acme.example\nceo@acme.example</textarea>" in page


def test_an_empty_list_mails_nobody(alice_client, acme):
    acme.summary_recipients = "cfo@acme.example"
    acme.save()

    assert post(alice_client, "  \n ").status_code == 302
    acme.refresh_from_db()
    assert acme.summary_recipients == "" and acme.recipients == []


@pytest.mark.parametrize("recipients, message", [
    ("cfo@acme.example, not-an-address", "&#x27;not-an-address&#x27; is not an e-mail address"),
    # A line break and a header of one's own cannot ride along into the mail's To: line.
    ("cfo@acme.example\nBcc: spy@evil.example", "&#x27;Bcc:&#x27; is not an e-mail address"),
    ("<script>alert(1)</script>@acme.example", "is not an e-mail address"),
    (" ".join(f"m{i}@acme.example" for i in range(21)), "at most 20 addresses, not 21"),
    ("a" * 4001, "at most 4000 characters"),
])
def test_bad_addresses_are_refused_with_nothing_saved(alice_client, acme, recipients, message):
    response = post(alice_client, recipients)

    assert response.status_code == 400
    page = response.content.decode()
    assert message in page and "<script>alert(1)" not in page
    acme.refresh_from_db()
    assert acme.summary_recipients == "" and acme.timezone == "UTC"


def test_charlie_sets_only_his_own_recipients(charlie_client, charlie, acme):
    assert post(charlie_client, "boss@globex.example").status_code == 302
    assert Organisation.objects.get(pk=charlie.membership.organisation_id).recipients == ["boss@globex.example"]
    acme.refresh_from_db()
    assert acme.recipients == []
