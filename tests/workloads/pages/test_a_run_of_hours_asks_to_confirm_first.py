"""A comparison estimated to take longer than an hour says how long, in hours, before it starts, and starts only
once the user confirms (issue 36: a codebase of 1,233 calls, hours on the machine, showed only its FLOPs)."""

import re

from django.urls import reverse

from tests.workloads.api.conftest import as_alice  # noqa: F401
from tests.workloads.pages.conftest import html
from workloads.comparisons import fit
from workloads.comparisons.starting import SETTINGS
from workloads.forms import RunForm
from workloads.models import ComparisonRun, Probe

FORM = {name: RunForm.base_fields[name].initial for name in SETTINGS} | {"strategies": ["chunked"]}


def _long(too_long):
    """The 24,146-token workload asked 25 questions: about 1,200 chunk calls (48 chunks and a reduce, per question)."""
    Probe.objects.bulk_create(Probe(workload=too_long, question=f"What is clause {i}?", answer=f"{i} days")
                              for i in range(25))
    return too_long


def test_the_form_says_how_many_hours_and_queues_nothing_until_confirmed(alice_client, too_long, prices, monkeypatch):
    workload = _long(too_long)
    plan = fit.preflight(workload, ["chunked"], {})
    assert plan._planned_calls() >= 1_200
    # This machine's speed decides whether 1,200 calls take an hour; the threshold below it makes the test hold
    # on any machine, and the wording is checked at the plan's own estimate.
    monkeypatch.setattr(fit, "CONFIRM_ABOVE_S", plan.seconds / 2)

    response = alice_client.post(reverse("run_create", args=[workload.pk]), FORM)

    page = html(response)
    assert response.status_code == 400 and not ComparisonRun.objects.exists()
    said = re.search(r"This comparison would take (about [\d.,]+ (hours|minutes)) on one worker \(([\d,]+) model calls\)",
                     page)
    assert said and said.group(1) == fit.duration_words(plan.seconds) and int(said.group(3).replace(",", "")) >= 1_200
    assert "Tick this box to start it anyway, knowing how long it takes." in page
    assert 'type="checkbox" name="confirm_duration"' in page

    response = alice_client.post(reverse("run_create", args=[workload.pk]), FORM | {"confirm_duration": "on"})
    assert response.status_code == 302 and ComparisonRun.objects.count() == 1


def test_the_api_refuses_it_with_the_duration_and_the_flag_to_send(as_alice, too_long, prices, monkeypatch):
    workload = _long(too_long)
    monkeypatch.setattr(fit, "CONFIRM_ABOVE_S", 0)

    response = as_alice.post(f"/workloads/{workload.pk}/runs", {"strategies": ["chunked"]})
    assert response.status_code == 400 and "This comparison would take about" in response.json()["detail"]
    assert response.json()["detail"].endswith('send "confirm_duration": true to start it anyway')
    assert as_alice.post(f"/workloads/{workload.pk}/runs", {"strategies": ["chunked"], "confirm_duration": True}
                         ).status_code == 202
