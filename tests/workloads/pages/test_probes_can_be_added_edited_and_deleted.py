"""Probes: added with a non-empty question and a short answer, edited, and deleted with a POST."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Probe


def test_probes_can_be_added_edited_and_deleted(alice_client, alice, workload):
    response = alice_client.post(reverse("probe_create", args=[workload.pk]),
                                 {"question": "Who signs for the supplier?", "answer": "Jane Roe"})
    assert response.status_code == 302 and response["Location"] == reverse("workload_detail", args=[workload.pk])
    probe = Probe.objects.get()
    assert (probe.workload, probe.kind, probe.created_by, probe.answer) == (workload, "user", alice, "Jane Roe")
    page = html(alice_client.get(response["Location"]))
    assert "Added the probe." in page and "<td>Who signs for the supplier?</td> <td>Jane Roe</td>" in page

    edit = reverse("probe_edit", args=[workload.pk, probe.pk])
    assert "Who signs for the supplier?</textarea>" in html(alice_client.get(edit))
    response = alice_client.post(edit, {"question": "Who signs for the supplier?", "answer": "John Doe"})
    assert response.status_code == 302
    probe.refresh_from_db()
    assert probe.answer == "John Doe"

    delete = reverse("probe_delete", args=[workload.pk, probe.pk])
    assert "Delete this probe?" in html(alice_client.get(delete)) and Probe.objects.exists()
    response = alice_client.post(delete, follow=True)
    assert "Deleted the probe." in html(response)
    assert not Probe.objects.exists()


def test_it_rejects_empty_and_overlong_probes(alice_client, workload, probe):
    for data, message in [
        ({"question": "   ", "answer": "x"}, "This field is required."),
        ({"question": "Why?", "answer": ""}, "This field is required."),
        ({"question": "Why?", "answer": "x" * 501}, "Ensure this value has at most 500 characters (it has 501)."),
        ({"question": "x" * 2001, "answer": "y"}, "Ensure this value has at most 2000 characters (it has 2001)."),
        ({"question": "Why?", "answer": "two\nlines"}, "Must be one line of visible text without control characters."),
        # Scoring reads a zero-width space as a space, so "90\u200bdays" could never match "90days".
        ({"question": "Why?", "answer": "90\u200bdays"},
         "Must not contain invisible characters (U+200B ZERO WIDTH SPACE)."),
        ({"question": "Wh\u2060y?", "answer": "x"}, "Must not contain invisible characters (U+2060 WORD JOINER)."),
    ]:
        response = alice_client.post(reverse("probe_create", args=[workload.pk]), data)
        assert response.status_code == 400 and message in response.content.decode(), data
        response = alice_client.post(reverse("probe_edit", args=[workload.pk, probe.pk]), data)
        assert response.status_code == 400 and message in response.content.decode(), data
    probe.refresh_from_db()
    assert Probe.objects.count() == 1 and probe.answer == "90 days"


def test_a_probe_is_reached_only_through_its_own_workload(alice_client, acme, workload, probe):
    other = workload.__class__.objects.create(organisation=acme, name="Other", target_model="m", api_provider="p")
    assert alice_client.get(reverse("probe_edit", args=[other.pk, probe.pk])).status_code == 404
    assert alice_client.post(reverse("probe_delete", args=[other.pk, probe.pk])).status_code == 404
    assert Probe.objects.filter(pk=probe.pk).exists()
