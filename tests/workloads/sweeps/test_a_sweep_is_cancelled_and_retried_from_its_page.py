"""The sweep's page cancels a queued or running sweep and tries a failed or cancelled one again, by POST with the
form's security token, as the run's page does; viewers see no button and are refused, other organisations get a 404."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import GroupSweep


@pytest.fixture
def sweep(workload):
    return GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[1, 4],
                                     settings={"window": 64, "topk": 64, "global_blocks": 1, "indexer": "pooled",
                                               "gate_points": 5}, progress_total=3)


def _page(client, sweep) -> str:
    return html(client.get(reverse("sweep_detail", args=[sweep.pk])))


@pytest.mark.parametrize("status", ["queued", "running"])
def test_a_member_cancels_an_unfinished_sweep_from_its_page(alice_client, sweep, status):
    GroupSweep.objects.filter(pk=sweep.pk).update(status=status)
    url = reverse("sweep_cancel", args=[sweep.pk])
    page = _page(alice_client, sweep)
    assert f'action="{url}"' in page and "Cancel the sweep" in page and "Try the sweep again" not in page
    assert alice_client.get(url).status_code == 405

    response = alice_client.post(url, follow=True)

    assert response.redirect_chain[-1][0] == reverse("sweep_detail", args=[sweep.pk])
    page = html(response)
    assert "Cancelled. A running sweep stops before its next question and keeps no report." in page
    assert "Cancel the sweep" not in page and "Try the sweep again" in page
    sweep.refresh_from_db()
    assert sweep.status == "cancelled" and sweep.finished_at is not None


def test_cancelling_a_finished_sweep_changes_nothing(alice_client, sweep):
    GroupSweep.objects.filter(pk=sweep.pk).update(status="succeeded")

    response = alice_client.post(reverse("sweep_cancel", args=[sweep.pk]), follow=True)

    assert "This sweep had already finished, so there was nothing to cancel." in html(response)
    assert GroupSweep.objects.get(pk=sweep.pk).status == "succeeded"


@pytest.mark.parametrize("status", ["failed", "cancelled"])
def test_a_member_tries_a_failed_or_cancelled_sweep_again(alice_client, sweep, status,
                                                          django_capture_on_commit_callbacks):
    GroupSweep.objects.filter(pk=sweep.pk).update(status=status, error="worker lost", progress_done=2)

    with django_capture_on_commit_callbacks() as queued:
        response = alice_client.post(reverse("sweep_retry", args=[sweep.pk]), follow=True)

    assert "Queued again at the same group sizes and settings." in html(response) and len(queued) == 1
    sweep.refresh_from_db()
    assert (sweep.status, sweep.error, sweep.progress_done, sweep.finished_at) == ("queued", "", 0, None)


def test_a_retry_while_another_sweep_is_unfinished_says_why(alice_client, sweep, workload):
    GroupSweep.objects.filter(pk=sweep.pk).update(status="failed")
    GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[2])

    response = alice_client.post(reverse("sweep_retry", args=[sweep.pk]), follow=True)

    assert ("Not queued again: a group-size sweep of this workload is still to finish: wait for it, or cancel it."
            in html(response))
    assert GroupSweep.objects.get(pk=sweep.pk).status == "failed"


def test_a_succeeded_sweep_is_not_tried_again(alice_client, sweep):
    GroupSweep.objects.filter(pk=sweep.pk).update(status="succeeded")
    assert "Try the sweep again" not in _page(alice_client, sweep)

    response = alice_client.post(reverse("sweep_retry", args=[sweep.pk]), follow=True)

    assert "Only a failed or cancelled sweep can be tried again." in html(response)
    assert GroupSweep.objects.get(pk=sweep.pk).status == "succeeded"


def test_a_viewer_sees_no_button_and_is_refused(client, vera, sweep):
    client.force_login(vera)
    assert "Cancel the sweep" not in _page(client, sweep)

    for name in ("sweep_cancel", "sweep_retry"):
        assert client.post(reverse(name, args=[sweep.pk])).status_code == 403
    assert GroupSweep.objects.get(pk=sweep.pk).status == "queued"


def test_another_organisation_gets_a_404(charlie_client, sweep):
    for name in ("sweep_detail", "sweep_cancel", "sweep_retry"):
        method = charlie_client.get if name == "sweep_detail" else charlie_client.post
        assert method(reverse(name, args=[sweep.pk])).status_code == 404
    assert GroupSweep.objects.get(pk=sweep.pk).status == "queued"


def test_a_cancel_without_the_forms_security_token_is_refused(alice, sweep):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)

    assert browser.post(reverse("sweep_cancel", args=[sweep.pk])).status_code == 403
    assert GroupSweep.objects.get(pk=sweep.pk).status == "queued"
