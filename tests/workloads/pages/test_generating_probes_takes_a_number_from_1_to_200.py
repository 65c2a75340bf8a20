"""The "generate probes" button comes with a number, 30 unless changed, from 1 to 200: the task generates at most
that many. A number out of bounds, or not a number, is refused with a clear error and queues nothing."""

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Document


def test_the_workload_page_offers_a_number_defaulting_to_30(alice_client, workload):
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert '<input type="number" name="limit" value="30" min="1" max="200"' in page


def test_the_number_goes_to_the_task(alice_client, workload, document, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        alice_client.post(reverse("probes_generate", args=[workload.pk]), {"limit": "12"})

    assert [c.args for c in callbacks] == [("workloads.generate_probes", (workload.pk, 12))]


@pytest.mark.parametrize("limit,error", [
    ("0", "Choose a number of probes from 1 to 200."),
    ("201", "Choose a number of probes from 1 to 200."),
    ("ten", "Choose a number of probes from 1 to 200: a whole number."),
])
def test_a_number_out_of_bounds_is_refused_and_queues_nothing(alice_client, workload, document,
                                                               django_capture_on_commit_callbacks, limit, error):
    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(reverse("probes_generate", args=[workload.pk]), {"limit": limit}, follow=True)

    assert not callbacks
    assert error in html(response) and "they will appear here shortly" not in html(response)


def test_the_task_adds_at_most_the_number_asked_for(workload):
    from workloads.tasks import generate_probes

    Document.objects.create(workload=workload, name="terms.txt", tokens=30, lines=1, size_bytes=90,
                            text="The notice period is 90 days. The monthly fee is $4,500. The depot code is DX-4.")

    assert generate_probes(workload.pk, 2) == 2
    assert list(workload.probes.values_list("answer", flat=True)) == ["90 days", "$4,500"]
