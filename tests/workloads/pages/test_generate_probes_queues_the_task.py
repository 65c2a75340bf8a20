"""Generating probes is a POST that queues the task once the transaction commits, and says they will appear."""

from django.urls import reverse

from tests.workloads.pages.conftest import html


def test_generate_probes_queues_the_task(alice_client, workload, document, django_capture_on_commit_callbacks):
    url = reverse("probes_generate", args=[workload.pk])
    assert alice_client.get(url).status_code == 405
    with django_capture_on_commit_callbacks() as callbacks:  # not executed: no worker needed
        response = alice_client.post(url)
    assert response.status_code == 302 and response["Location"] == reverse("workload_detail", args=[workload.pk])
    assert [c.args for c in callbacks] == [("workloads.generate_probes", (workload.pk, 30))]  # task name, arguments
    assert "they will appear here shortly" in html(alice_client.get(response["Location"]))


def test_generating_without_documents_asks_for_documents_first(alice_client, workload,
                                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(reverse("probes_generate", args=[workload.pk]), follow=True)
    assert not callbacks
    assert "Upload documents first: probes are generated from them." in html(response)


def test_the_page_says_what_the_last_generation_found_and_added(alice_client, workload, document):
    from workloads.tasks import generate_probes

    url = reverse("workload_detail", args=[workload.pk])
    assert "data-probe-generation" not in html(alice_client.get(url))

    assert generate_probes(workload.pk) == 1  # "The notice period is 90 days."
    assert "added 1 of the 1 question it found." in html(alice_client.get(url))
    assert generate_probes(workload.pk) == 0
    assert "found 1 question, all already here." in html(alice_client.get(url))

    document.text = "Thanks for calling. We will get back to you."
    document.save()
    assert generate_probes(workload.pk) == 0
    assert "found no sentence of the shapes probes are made from" in html(alice_client.get(url))


def test_a_generated_probe_the_probe_form_would_refuse_is_not_added(workload, document):
    from workloads.tasks import generate_probes

    # A zero-width non-joiner inside a Latin word: invisible, and the form refuses it, so the probe could not be edited.
    document.text = "The delivery date is 14 Feb\u200cruary 2025. The notice period is 90 days."
    document.save()

    assert generate_probes(workload.pk) == 1
    assert list(workload.probes.values_list("answer", flat=True)) == ["90 days"]
