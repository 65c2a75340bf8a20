"""The price book: GPU and API prices per organisation, effective-dated, each with its source."""

import datetime as dt
from decimal import Decimal

import pytest

from workloads.models import ApiPrice, GpuPrice

GPU = {"device_class": "H100", "per_hour": 2.5, "effective_from": "2026-04-01", "source": "quote #42"}
API = {"provider": "example-api", "model": "big-model", "input_per_mtok": "0.15", "output_per_mtok": 0.6,
       "effective_from": "2026-04-01", "source": "https://example.com/pricing"}


def test_it_adds_a_gpu_price_to_the_organisations_book(as_alice, acme):
    response = as_alice.post("/prices/gpu", GPU)

    assert response.status_code == 201
    entry = GpuPrice.objects.get(pk=response.json()["id"])
    assert (entry.organisation, entry.device_class, entry.per_hour, entry.effective_from, entry.source) == (
        acme, "H100", Decimal("2.5"), dt.date(2026, 4, 1), "quote #42")
    assert response.json()["source"] == "quote #42" and response.json()["effective_from"] == "2026-04-01"


def test_it_adds_an_api_price(as_alice):
    response = as_alice.post("/prices/api", API)

    assert response.status_code == 201
    entry = ApiPrice.objects.get()
    assert (entry.input_per_mtok, entry.output_per_mtok) == (Decimal("0.15"), Decimal("0.6"))


def test_it_lists_the_organisations_prices(as_alice, as_charlie, prices):
    as_charlie.post("/prices/gpu", GPU)

    gpu = as_alice.get("/prices/gpu").json()
    api = as_alice.get("/prices/api").json()

    assert [(p["device_class"], Decimal(p["per_hour"])) for p in gpu] == [("H200", Decimal("3.5")),
                                                                        ("cpu", Decimal("0.1"))]
    assert [(p["provider"], p["model"], p["source"]) for p in api] == [
        ("example-api", "SmolLM2-135M-Instruct", "test: an API price page")]


def test_a_later_price_for_the_same_device_is_a_new_entry(as_alice, prices):
    response = as_alice.post("/prices/gpu", GPU | {"device_class": "H200", "effective_from": "2026-07-01"})

    assert response.status_code == 201
    assert GpuPrice.objects.filter(device_class="H200").count() == 2


def test_it_refuses_a_second_gpu_price_for_the_same_class_and_date(as_alice, prices):
    response = as_alice.post("/prices/gpu", GPU | {"device_class": "H200", "effective_from": "2026-01-01"})

    assert (response.status_code, response.json()) == (
        400, {"detail": 'a price for "H200" from 2026-01-01 is already in the price book'})
    assert GpuPrice.objects.count() == 2


def test_a_class_in_another_case_is_the_same_class(as_alice, prices):
    response = as_alice.post("/prices/gpu", GPU | {"device_class": "h200", "effective_from": "2026-01-01"})
    assert (response.status_code, response.json()) == (
        400, {"detail": 'a price for "H200" from 2026-01-01 is already in the price book'})

    response = as_alice.post("/prices/gpu", GPU | {"device_class": "h200", "effective_from": "2026-07-01"})
    assert response.status_code == 201 and response.json()["device_class"] == "H200"
    assert GpuPrice.objects.filter(device_class="H200").count() == 2


def test_it_refuses_a_second_api_price_for_the_same_model_and_date(as_alice, prices):
    response = as_alice.post("/prices/api", API | {"model": "SmolLM2-135M-Instruct", "effective_from": "2026-01-01"})

    assert response.status_code == 400
    assert "already in the price book" in response.json()["detail"]
    assert ApiPrice.objects.count() == 1


def test_another_organisation_may_price_the_same_key_and_date(as_charlie, prices):
    response = as_charlie.post("/prices/gpu", GPU | {"device_class": "H200", "effective_from": "2026-01-01"})

    assert response.status_code == 201


BAD_GPU = [
    ({"per_hour": -1}, "per_hour: Input should be greater than or equal to 0"),
    ({"per_hour": "abc"}, "per_hour: Input should be a valid decimal"),
    ({"per_hour": "NaN"}, None),
    ({"per_hour": 10**7}, "per_hour: Decimal input should have no more than 6 digits before the decimal point"),
    ({"per_hour": 0.12345}, "per_hour: Decimal input should have no more than 4 decimal places"),
    ({"effective_from": "01/04/2026"}, None),
    ({"effective_from": "2026-02-30"}, None),
    ({"source": ""}, "source: String should have at least 1 character"),
    ({"source": "s" * 501}, "source: String should have at most 500 characters"),
    ({"device_class": ""}, "device_class: String should have at least 1 character"),
    ({"device_class": "x" * 51}, "device_class: String should have at most 50 characters"),
    ({"organisation": 1}, "organisation: Extra inputs are not permitted"),
]


@pytest.mark.parametrize(("change", "detail"), BAD_GPU, ids=[str(c) for c, _ in BAD_GPU])
def test_it_refuses_a_bad_gpu_price_and_saves_nothing(as_alice, change, detail):
    response = as_alice.post("/prices/gpu", GPU | change)

    assert response.status_code == 400
    if detail:
        assert response.json() == {"detail": detail}
    assert not GpuPrice.objects.exists()


def test_it_requires_a_source_for_an_api_price(as_alice):
    response = as_alice.post("/prices/api", {k: v for k, v in API.items() if k != "source"})

    assert (response.status_code, response.json()) == (400, {"detail": "source: Field required"})


def test_it_refuses_a_negative_api_price(as_alice):
    response = as_alice.post("/prices/api", API | {"output_per_mtok": -0.01})

    assert (response.status_code, response.json()) == (
        400, {"detail": "output_per_mtok: Input should be greater than or equal to 0"})
    assert not ApiPrice.objects.exists()
