"""The workload form's API model is a choice of the price book's API entries, shown with their prices and a link to
add one; a choice the price book lacks is refused with what it has, and nothing is saved."""

import datetime as dt
import json

from django.urls import reverse

from tests.workloads.conftest import MODEL
from workloads.models import ApiPrice, Workload

FORM = {"name": "Support tickets", "kind": "support", "expected_volume": "900", "target_model": MODEL}


def _small_model(acme, **fields):
    values = {"input_per_mtok": "0.15", "output_per_mtok": "0.60", "effective_from": dt.date(2026, 1, 1)} | fields
    return ApiPrice.objects.create(organisation=acme, provider="ExampleAI", model="small-model-v2",
                                   source="test: a price page", **values)


def test_it_offers_each_api_model_of_the_price_book_once_with_its_prices(alice_client, acme, prices):
    _small_model(acme, effective_from=dt.date(2025, 1, 1), input_per_mtok="0.30")  # an older price, not offered
    _small_model(acme, cached_input_per_mtok="0.075")

    page = alice_client.get(reverse("workload_create")).content.decode()

    assert '<option value="" selected>None: no API comparison</option>' in page
    assert ("<option value=\"[&quot;ExampleAI&quot;, &quot;small-model-v2&quot;]\">"
            "ExampleAI small-model-v2 — $0.15 in / $0.075 cached / $0.60 out per M tokens</option>") in page
    assert f"example-api {MODEL} — $0.10 in / $0.30 out per M tokens</option>" in page
    assert page.count("small-model-v2 —") == 1
    assert f'<a href="{reverse("price_book")}#api-prices">the price book</a>' in page


def test_a_model_priced_only_from_a_later_date_says_from_when(alice_client, acme):
    _small_model(acme, effective_from=dt.date(2099, 1, 1))

    page = alice_client.get(reverse("workload_create")).content.decode()

    assert "ExampleAI small-model-v2 — $0.15 in / $0.60 out per M tokens, from 1 Jan 2099</option>" in page


def test_it_saves_the_chosen_pair_and_shows_it_chosen_on_the_edit_page(alice_client, acme, prices):
    _small_model(acme)

    chosen = json.dumps(["ExampleAI", "small-model-v2"])
    response = alice_client.post(reverse("workload_create"), FORM | {"api": chosen})

    workload = Workload.objects.get()
    assert response.status_code == 302
    assert (workload.api_provider, workload.api_model, workload.target_model) == ("ExampleAI", "small-model-v2", MODEL)
    page = alice_client.get(reverse("workload_edit", args=[workload.pk])).content.decode()
    assert '<option value="[&quot;ExampleAI&quot;, &quot;small-model-v2&quot;]" selected>' in page
    detail = alice_client.get(reverse("workload_detail", args=[workload.pk])).content.decode()
    assert "compared with the API model ExampleAI small-model-v2" in detail


def test_an_empty_choice_means_no_api_comparison(alice_client, acme):
    assert alice_client.post(reverse("workload_create"), FORM | {"api": ""}).status_code == 302

    assert Workload.objects.values_list("api_provider", "api_model").get() == ("", "")


def test_it_refuses_a_pair_the_price_book_lacks_and_lists_what_it_has(alice_client, acme, prices):
    _small_model(acme)
    # The provider of one entry with the model of another: each exists, the pair does not.
    response = alice_client.post(reverse("workload_create"), FORM | {"api": json.dumps(["ExampleAI", MODEL])})

    assert response.status_code == 400
    assert (f"The price book has no API model &#x27;{MODEL}&#x27; from &#x27;ExampleAI&#x27;; it has ExampleAI "
            f"small-model-v2, example-api {MODEL}: choose one of those, or add it to the price book first."
            in response.content.decode())
    assert not Workload.objects.exists()


def test_it_refuses_a_value_that_names_no_pair(alice_client, acme, prices):
    for value in ["example-api", '["example-api"]', '["two\\nlines", "m"]', "[1, 2]", '{"a": 1}']:
        response = alice_client.post(reverse("workload_create"), FORM | {"api": value})
        assert response.status_code == 400 and "Choose an API model from the list." in response.content.decode()
    assert not Workload.objects.exists()


def test_a_workload_keeps_a_choice_whose_entries_were_deleted_until_it_picks_another(alice_client, workload):
    # No price book entry for its pair (as after a data migration or a deleted entry): the edit page still shows it
    # chosen, and saving the workload unchanged keeps it rather than dropping the comparison.
    url = reverse("workload_edit", args=[workload.pk])
    page = alice_client.get(url).content.decode()
    value = json.dumps(["example-api", MODEL]).replace('"', "&quot;")
    assert f'<option value="{value}" selected>example-api {MODEL} — not in the price book</option>' in page

    response = alice_client.post(url, {"name": workload.name, "kind": workload.kind, "expected_volume": 40,
                                       "target_model": MODEL, "api": json.dumps(["example-api", MODEL])})

    assert response.status_code == 302
    workload.refresh_from_db()
    assert (workload.api_provider, workload.api_model) == ("example-api", MODEL)
