"""A run keeps the API model it was queued with: changing its workload's API model later changes later runs, and
re-pricing this one still prices the model it was compared against."""

import datetime as dt

import pytest

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.comparisons import pricing
from workloads.models import ApiPrice


def test_a_workloads_new_api_model_does_not_reprice_its_past_runs(acme, workload, probe, prices, alice):
    dear = ApiPrice.objects.create(organisation=acme, provider="DearAI", model="huge-v9", input_per_mtok="50",
                                   output_per_mtok="150", effective_from=dt.date(2026, 1, 1), source="test: dear")
    run = make_run(workload, standard_report(probe))
    before = {r.strategy: r.api_dollars for r in run.results.all()}
    assert (run.api_provider, run.api_model) == (prices["api"].provider, prices["api"].model)

    workload.api_provider, workload.api_model = dear.provider, dear.model
    workload.save()
    pricing.price_run(run, by=alice)
    run.refresh_from_db()

    assert run.api_price == prices["api"]
    assert {r.strategy: r.api_dollars for r in run.results.all()} == pytest.approx(before)
    assert make_run(workload, standard_report(probe)).api_price == dear  # the next run compares against the new one
