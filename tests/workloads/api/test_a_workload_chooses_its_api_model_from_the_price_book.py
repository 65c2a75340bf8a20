"""Through the API a workload names its API model as api_provider + api_model, a pair of the organisation's price
book independent of target_model; a pair the price book lacks is a 400 that lists what it has and saves nothing."""

import datetime as dt

import pytest

from workloads.models import ApiPrice, Workload

from ..conftest import MODEL

NEW = {"name": "Support tickets", "target_model": MODEL}


@pytest.fixture
def small_model(acme):
    return ApiPrice.objects.create(organisation=acme, provider="ExampleAI", model="small-model-v2",
                                   input_per_mtok="0.15", output_per_mtok="0.60", effective_from=dt.date(2026, 1, 1),
                                   source="test: a price page")


def test_it_creates_a_workload_that_compares_against_another_model_than_it_runs(as_alice, prices, small_model):
    response = as_alice.post("/workloads", NEW | {"api_provider": "ExampleAI", "api_model": "small-model-v2"})

    assert response.status_code == 201
    body = response.json()
    assert (body["target_model"], body["api_provider"], body["api_model"]) == (MODEL, "ExampleAI", "small-model-v2")
    assert Workload.objects.values_list("api_provider", "api_model").get() == ("ExampleAI", "small-model-v2")


@pytest.mark.parametrize("pair", [("ExampleAI", MODEL), ("example-api", "small-model-v2"), ("ExampleAI", ""),
                                  ("", "small-model-v2"), ("exampleai", "small-model-v2")])
def test_it_refuses_a_pair_the_price_book_lacks_and_lists_what_it_has(as_alice, prices, small_model, pair):
    provider, model = pair
    response = as_alice.post("/workloads", NEW | {"api_provider": provider, "api_model": model})

    assert (response.status_code, response.json()) == (400, {"detail": (
        f"the price book has no API model {model!r} from {provider!r}; it has ExampleAI small-model-v2, "
        f"example-api {MODEL}: choose one of those (GET /api/prices/api), add it first (POST /api/prices/api), "
        "or leave api_provider and api_model empty for no API comparison")})
    assert not Workload.objects.exists()


def test_it_says_when_the_price_book_has_no_api_model_at_all(as_charlie):
    response = as_charlie.post("/workloads", NEW | {"api_provider": "ExampleAI", "api_model": "small-model-v2"})

    assert response.status_code == 400
    assert "; it has none yet: " in response.json()["detail"]
    assert not Workload.objects.exists()


def test_another_organisations_price_book_does_not_count(as_charlie, prices):
    response = as_charlie.post("/workloads", NEW | {"api_provider": "example-api", "api_model": MODEL})

    assert response.status_code == 400 and not Workload.objects.exists()


def test_empty_or_left_out_means_no_api_comparison(as_alice):
    assert as_alice.post("/workloads", NEW | {"api_provider": " ", "api_model": ""}).status_code == 201
    assert as_alice.post("/workloads", NEW | {"name": "Other"}).status_code == 201

    assert set(Workload.objects.values_list("api_provider", "api_model")) == {("", "")}


def test_the_schema_documents_both_fields(as_alice):
    schema = as_alice.get("/openapi.json").json()["components"]["schemas"]

    for name in ("api_provider", "api_model"):
        assert "price book" in schema["WorkloadIn"]["properties"][name]["description"]
        assert schema["WorkloadOut"]["properties"][name]["description"]
    assert not {"api_provider", "api_model"} & set(schema["WorkloadIn"].get("required", []))
