"""A comparison estimated to take longer than an hour says how long before it starts, and starts only once the user
confirms (issue 36: a codebase of 1,233 calls, hours on the machine, showed only its FLOPs)."""

import re

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.comparisons import fit
from workloads.comparisons.starting import SETTINGS
from workloads.forms import RunForm
from workloads.models import ComparisonRun

FORM = {name: RunForm.base_fields[name].initial for name in SETTINGS} | {"strategies": ["chunked"]}


def test_the_form_says_how_long_and_queues_nothing_until_confirmed(alice_client, asked_often, prices, monkeypatch):
    workload = asked_often
    plan = fit.preflight(workload, ["chunked"], {})
    assert plan.calls == 25 * (55 + 1)
    # This machine's speed decides whether 1,400 calls take an hour; the threshold below it makes the test hold
    # on any machine, and the wording is checked at the plan's own estimate.
    monkeypatch.setattr(fit, "CONFIRM_ABOVE_S", plan.seconds / 2)

    response = alice_client.post(reverse("run_create", args=[workload.pk]), FORM)

    page = html(response)
    assert response.status_code == 400 and not ComparisonRun.objects.exists()
    said = re.search(r"This comparison would take (about [\d.,]+ (?:hours|minutes)) on one worker \(([\d,]+) model "
                     r"calls\)", page)
    assert said and said.group(1) == fit.duration_words(plan.seconds)
    assert int(said.group(2).replace(",", "")) == plan.calls
    assert "Tick this box to start it anyway, knowing how long it takes." in page
    assert 'type="checkbox" name="confirm_duration"' in page

    response = alice_client.post(reverse("run_create", args=[workload.pk]), FORM | {"confirm_duration": "on"})
    assert response.status_code == 302 and ComparisonRun.objects.count() == 1

