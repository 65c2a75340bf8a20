"""The API refuses to start a run in which every chosen full-context strategy would refuse, with a 400 that says
why and how to go on, unless the request sets confirm_refusals."""

from workloads.models import ComparisonRun

from ..conftest import MODEL


def test_it_refuses_with_a_400_that_explains(as_alice, too_long, probe, prices):
    response = as_alice.post(f"/workloads/{too_long.pk}/runs", {"strategies": ["chunked", "full_index_share"]})

    assert response.status_code == 400 and not ComparisonRun.objects.exists()
    assert response.json() == {"detail": (
        "Every full-context strategy chosen (Whole documents (Index Share)) would refuse: the documents need about 24,274 "
        f"positions and {MODEL} holds 8,192, so the run would measure no full-context cost: send "
        '"confirm_refusals": true to start it anyway')}


def test_it_starts_the_run_when_the_refusals_are_confirmed(as_alice, too_long, probe, prices):
    response = as_alice.post(f"/workloads/{too_long.pk}/runs", {"strategies": ["chunked", "full_index_share"],
                                                                "confirm_refusals": True})

    assert response.status_code == 202
    assert ComparisonRun.objects.get().strategies == ["chunked", "full_index_share"]


def test_the_default_strategies_ask_too(as_alice, too_long, probe, prices):
    assert as_alice.post(f"/workloads/{too_long.pk}/runs").status_code == 400
    assert as_alice.post(f"/workloads/{too_long.pk}/runs", {"confirm_refusals": True}).status_code == 202
