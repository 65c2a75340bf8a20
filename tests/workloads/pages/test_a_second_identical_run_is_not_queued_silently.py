"""Before queuing a comparison identical to one still waiting, the form says so and where that one stands in the
workers' queue; a queued run's page shows its place; the dashboard's "latest run" never points at a cancelled run
while an earlier one still waits (issue 36)."""

from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run
from workloads.comparisons import starting
from workloads.models import ComparisonRun


def test_the_form_warns_of_a_waiting_twin_with_its_place_in_the_queue(alice_client, alice, workload, document,
                                                                       probe, prices, monkeypatch):
    # No worker takes it in this test.
    monkeypatch.setattr("workloads.workers.dispatch.queue_comparison", lambda pk: None)
    ahead = make_run(workload, status=ComparisonRun.Status.QUEUED)  # chunked and Index Share
    first = starting.start_run(workload, alice)  # the defaults

    page = html(alice_client.get(reverse("run_create", args=[workload.pk])))
    assert (f'Run <a href="{reverse("run_detail", args=[first.pk])}">{first.pk}</a>, the same comparison with the same '
            "settings, is already queued, number 2 in the workers' queue: starting another repeats it.") in page
    assert "Number 2 in the workers' queue." in html(alice_client.get(reverse("run_detail", args=[first.pk])))
    assert starting.queue_position(ahead) == 1

    # Other strategies, or the same ones with another setting, are no twin.
    assert starting.waiting_twin(workload, ["chunked"], {}) is None
    assert starting.waiting_twin(workload, first.strategies, {"chunk_tokens": 128}) is None
    assert starting.waiting_twin(workload, first.strategies, {}) == first


def test_the_dashboard_shows_the_waiting_run_not_the_cancelled_duplicate(alice_client, workload, probe, prices):
    waiting = make_run(workload, status=ComparisonRun.Status.QUEUED)
    make_run(workload, status=ComparisonRun.Status.CANCELLED)

    page = html(alice_client.get(reverse("dashboard")))
    assert f'Latest run: <a href="{reverse("run_detail", args=[waiting.pk])}">run {waiting.pk}</a>' in page
