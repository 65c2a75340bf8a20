"""A workload compares against the API model it would otherwise buy, chosen from the price book and independent of
the model it runs locally: its runs, its start check and its planning are priced with that model's entry."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import make_run, standard_report
from workloads.comparisons import pricing, starting
from workloads.models import ApiPrice, Workload

SMALL = ("ExampleAI", "small-model-v2")


@pytest.fixture
def small_model(acme):
    return ApiPrice.objects.create(organisation=acme, provider=SMALL[0], model=SMALL[1], input_per_mtok="0.15",
                                   cached_input_per_mtok="0.075", output_per_mtok="0.60",
                                   effective_from=dt.date(2026, 1, 1), source="test: ExampleAI's price page")


def test_it_chooses_an_api_model_that_is_not_its_local_model_and_its_runs_are_priced_with_it(
        alice_client, acme, prices, small_model, probe):
    workload = probe.workload
    response = alice_client.post(reverse("workload_edit", args=[workload.pk]), {
        "name": workload.name, "kind": workload.kind, "expected_volume": 40, "target_model": MODEL,
        "api": f'["{SMALL[0]}", "{SMALL[1]}"]'})
    assert response.status_code == 302
    workload.refresh_from_db()
    assert (workload.target_model, workload.api_provider, workload.api_model) == (MODEL, *SMALL)

    run = make_run(workload, standard_report(probe))

    assert run.pricing_error == "" and run.api_price == small_model
    chunked = run.results.get(strategy="chunked")  # 2,000 tokens in and 20 out, at $0.15 and $0.60 a million
    assert chunked.api_dollars == pytest.approx((2000 * 0.15 + 20 * 0.60) / 1e6)


def test_the_local_models_own_entry_no_longer_prices_a_workload_that_chose_another(workload, prices, probe):
    Workload.objects.filter(pk=workload.pk).update(api_provider=SMALL[0], api_model=SMALL[1])
    workload.refresh_from_db()

    run = make_run(workload, standard_report(probe))

    assert run.api_price is None and run.results.get(strategy="chunked").api_dollars is None
    assert run.pricing_error.startswith(f"no API price for {SMALL[1]} from {SMALL[0]} in force on ")


def test_a_workload_with_no_api_model_is_priced_on_its_device_alone_and_starts(workload, prices, probe, alice):
    Workload.objects.filter(pk=workload.pk).update(api_provider="", api_model="")
    workload.refresh_from_db()
    ApiPrice.objects.all().delete()

    run = make_run(workload, standard_report(probe))

    assert run.pricing_error == "" and run.api_price is None and run.gpu_price == prices["cpu"]
    chunked = run.results.get(strategy="chunked")
    assert chunked.device_dollars is not None and chunked.api_dollars is None
    assert pricing.workload_api_price(workload, dt.date(2026, 5, 1)) is None
    workload.documents.create(name="a.txt", text="The notice period is 90 days.", tokens=8, lines=1, size_bytes=29)
    assert starting.start_run(workload, alice, ["chunked"]).pk  # no API price is needed to start


def test_a_run_cannot_start_until_the_chosen_api_model_is_priced(workload, prices, probe, alice):
    Workload.objects.filter(pk=workload.pk).update(api_provider=SMALL[0], api_model=SMALL[1])
    workload.refresh_from_db()
    workload.documents.create(name="a.txt", text="The notice period is 90 days.", tokens=8, lines=1, size_bytes=29)

    with pytest.raises(ValidationError, match=f"no API price for {SMALL[1]} from {SMALL[0]}.*POST /api/prices/api"):
        starting.start_run(workload, alice, ["chunked"])
    assert not workload.runs.exists()
