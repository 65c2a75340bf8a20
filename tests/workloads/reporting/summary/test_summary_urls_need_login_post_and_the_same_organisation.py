"""Summary URLs send anonymous visitors to log in, refuse the wrong method, and are 404 to another organisation."""

import pytest
from django.urls import reverse

from tests.workloads.reporting.summary.conftest import done_summary
from workloads.models import Summary, SummaryEmail

NAMES = ["summary_create", "summary_download", "summary_status", "summary_email"]
POSTED = {"summary_create", "summary_email"}


@pytest.mark.parametrize("name", NAMES)
def test_an_anonymous_visitor_is_sent_to_the_login_page(client, db, name):
    url = reverse(name, args=[1])
    response = client.post(url) if name in POSTED else client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_create_and_email_are_post_only_and_the_others_get_only(alice_client, this_quarter):
    assert alice_client.get(reverse("summary_create", args=[this_quarter.pk])).status_code == 405
    assert alice_client.get(reverse("summary_email", args=[this_quarter.pk])).status_code == 405
    assert alice_client.post(reverse("summary_download", args=[this_quarter.pk])).status_code == 405
    assert alice_client.post(reverse("summary_status", args=[this_quarter.pk])).status_code == 405
    assert not Summary.objects.exists()


def test_charlie_gets_404_for_acmes_run_and_queues_nothing(charlie_client, this_quarter):
    done_summary(this_quarter)
    this_quarter.workload.organisation.summary_recipients = "cfo@acme.example"
    this_quarter.workload.organisation.save()

    assert charlie_client.post(reverse("summary_create", args=[this_quarter.pk])).status_code == 404
    assert charlie_client.post(reverse("summary_email", args=[this_quarter.pk])).status_code == 404
    assert charlie_client.get(reverse("summary_download", args=[this_quarter.pk])).status_code == 404
    assert charlie_client.get(reverse("summary_status", args=[this_quarter.pk])).status_code == 404
    assert this_quarter.summaries.count() == 1 and not SummaryEmail.objects.exists()


def test_an_unknown_run_is_404(alice_client, db):
    assert alice_client.post(reverse("summary_create", args=[999_999])).status_code == 404
    assert alice_client.get(reverse("summary_download", args=[999_999])).status_code == 404
    assert alice_client.post(reverse("summary_email", args=[999_999])).status_code == 404
