"""Deleting a probe asks first: the workload page links to a page that shows the probe and asks "Delete this
probe?" with a POST form (no script: the pages run none); a GET deletes nothing, the POST deletes."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Probe


def test_the_workload_page_links_to_the_confirmation_instead_of_deleting(alice_client, workload, probe):
    delete = reverse("probe_delete", args=[workload.pk, probe.pk])
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert f'<a href="{delete}" class="danger">Delete' in page
    assert f'action="{delete}"' not in page


def test_a_get_asks_to_confirm_and_deletes_nothing(alice_client, workload, probe):
    probe.question = "Is <b>this</b> the notice period?"
    probe.save()
    delete = reverse("probe_delete", args=[workload.pk, probe.pk])

    page = html(alice_client.get(delete))

    assert "<h1>Delete this probe?</h1>" in page
    assert "Is &lt;b&gt;this&lt;/b&gt; the notice period?" in page and "<dd>90 days</dd>" in page
    assert '<form method="post" class="inline">' in page and 'name="csrfmiddlewaretoken"' in page
    assert f'<a href="{reverse("workload_detail", args=[workload.pk])}">Keep it</a>' in page
    assert "confirm(" not in page and "onclick" not in page
    assert Probe.objects.filter(pk=probe.pk).exists()


def test_the_confirming_post_deletes_the_probe(alice_client, workload, probe):
    response = alice_client.post(reverse("probe_delete", args=[workload.pk, probe.pk]))

    assert response.status_code == 302 and response["Location"] == reverse("workload_detail", args=[workload.pk])
    assert not Probe.objects.exists()
