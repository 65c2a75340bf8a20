"""An API price entry carries a price per million cached input tokens beside input and output: it round-trips
through the price book page and the API, empty means no cache discount known, and a bad value is refused."""

from decimal import Decimal

import pytest
from django.urls import reverse

from workloads.models import ApiPrice

ENTRY = {"provider": "ExampleAI", "model": "small-model-v2", "input_per_mtok": "0.15", "output_per_mtok": "0.6",
         "effective_from": "2026-04-01", "source": "https://example.com/pricing"}


def test_it_round_trips_through_the_price_book_page(alice_client):
    response = alice_client.post(reverse("api_price_create"), ENTRY | {"cached_input_per_mtok": "0.075"}, follow=True)

    assert ApiPrice.objects.get().cached_input_per_mtok == Decimal("0.075")
    page = response.content.decode()
    assert '<th scope="col" class="num">Cached input per M tokens</th>' in page
    assert '<td class="num">$0.075</td>' in page


def test_it_round_trips_through_the_api(as_alice):
    response = as_alice.post("/prices/api", ENTRY | {"cached_input_per_mtok": "0.075"})

    assert response.status_code == 201 and Decimal(response.json()["cached_input_per_mtok"]) == Decimal("0.075")
    assert ApiPrice.objects.get().cached_input_per_mtok == Decimal("0.075")
    [listed] = as_alice.get("/prices/api").json()
    assert Decimal(listed["cached_input_per_mtok"]) == Decimal("0.075")


def test_left_empty_it_means_no_cache_discount_known(alice_client, as_alice):
    page = alice_client.post(reverse("api_price_create"), ENTRY | {"cached_input_per_mtok": ""}, follow=True)
    api = as_alice.post("/prices/api", ENTRY | {"effective_from": "2026-05-01"})

    assert api.status_code == 201 and api.json()["cached_input_per_mtok"] is None
    assert list(ApiPrice.objects.values_list("cached_input_per_mtok", flat=True)) == [None, None]
    assert '<td class="num">no discount known</td>' in page.content.decode()  # never "$0"


BAD = [("-0.01", "greater than or equal to 0"), ("NaN", None), ("Infinity", None), ("1e7", "digits"),
       ("0.00001", "decimal places"), ("cheap", "valid decimal")]


@pytest.mark.parametrize(("value", "detail"), BAD, ids=[v for v, _ in BAD])
def test_it_refuses_a_bad_value_on_the_page_and_through_the_api(alice_client, as_alice, value, detail):
    web = alice_client.post(reverse("api_price_create"), ENTRY | {"cached_input_per_mtok": value})
    api = as_alice.post("/prices/api", ENTRY | {"cached_input_per_mtok": value})

    assert (web.status_code, api.status_code) == (400, 400)
    assert api.json()["detail"].startswith("cached_input_per_mtok: ")
    if detail:
        assert detail in api.json()["detail"]
    assert not ApiPrice.objects.exists()


def test_the_api_refuses_an_empty_string_null_is_how_it_says_unknown(as_alice):
    response = as_alice.post("/prices/api", ENTRY | {"cached_input_per_mtok": ""})

    assert response.status_code == 400 and response.json()["detail"].startswith("cached_input_per_mtok: ")
    assert not ApiPrice.objects.exists()
