"""The Endpoints page: every member reads the list, with whether each has a key and never the key; admins add
endpoints, with or without a key and billed at one of the price book's API models, and delete them."""

import pytest
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Endpoint

from .conftest import VLLM, make_endpoint


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_admin_adds_an_endpoint_with_its_key_and_price(alice_client, alice, acme, prices):
    response = alice_client.post(reverse("endpoint_create"), {**VLLM, "api_key": "sk-page-test-0123456789",
                                                              "price": prices["api"].pk}, follow=True)

    assert response.redirect_chain == [(reverse("endpoints"), 302)]
    endpoint = Endpoint.objects.get()
    assert (endpoint.organisation, endpoint.name, endpoint.base_url, endpoint.model) == (acme, *VLLM.values())
    assert (endpoint.price, endpoint.created_by) == (prices["api"], alice)
    assert endpoint.api_key() == "sk-page-test-0123456789"
    page = html(response)
    assert "Added the endpoint vLLM on the GPU box (Qwen/Qwen2.5-7B-Instruct), with its key stored encrypted." in page
    assert "http://gpu-box:8000/v1" in page and "example-api SmolLM2-135M-Instruct" in page and "key: set" in page


def test_an_endpoint_without_a_key_says_so(alice_client, acme):
    response = alice_client.post(reverse("endpoint_create"), {**VLLM, "api_key": ""}, follow=True)

    endpoint = Endpoint.objects.get()
    assert (endpoint.key_set, endpoint.encrypted_key, endpoint.api_key(), endpoint.price) == (False, "", "", None)
    page = html(response)
    assert "with no key." in page and "<td>no key</td>" in page and "nothing: only its device costs" in page


def test_the_form_offers_the_price_books_api_models(alice_client, prices):
    page = html(alice_client.get(reverse("endpoints")))

    assert f'<option value="{prices["api"].pk}">example-api SmolLM2-135M-Instruct — $0.10 in / $0.30 out' in page
    assert 'type="password"' in page and 'autocomplete="new-password"' in page


def test_every_member_reads_the_list_and_only_admins_see_the_forms(alice, bob, vera, acme, ollama):
    for user in (alice, bob, vera):
        page = html(_client(user).get(reverse("endpoints")))
        assert '<th scope="row">Ollama</th>' in page and "http://localhost:11434/v1" in page
        assert "llama3.1:8b" in page and "no key" in page
        admin = user == alice
        assert ("Add an endpoint" in page) is admin and (reverse("endpoint_delete", args=[ollama.pk]) in page) is admin
        assert ("Only admins add and delete endpoints." in page) is not admin
    assert f'href="{reverse("endpoints")}"' in html(_client(vera).get(reverse("dashboard")))  # in the navigation


def test_only_admins_add_or_delete(bob, vera, ollama):
    for user in (bob, vera):
        client = _client(user)
        assert client.post(reverse("endpoint_create"), VLLM).status_code == 403
        assert client.post(reverse("endpoint_delete", args=[ollama.pk])).status_code == 403
    assert list(Endpoint.objects.values_list("name", flat=True)) == ["Ollama"]


def test_an_admin_deletes_an_endpoint(alice_client, ollama):
    response = alice_client.post(reverse("endpoint_delete", args=[ollama.pk]), follow=True)

    assert not Endpoint.objects.exists()
    assert "Deleted the endpoint Ollama (llama3.1:8b), and its key with it." in html(response)


def test_another_organisations_endpoint_is_not_found(charlie_client, ollama):
    assert charlie_client.post(reverse("endpoint_delete", args=[ollama.pk])).status_code == 404
    assert '<th scope="row">Ollama</th>' not in html(charlie_client.get(reverse("endpoints")))
    assert Endpoint.objects.filter(pk=ollama.pk).exists()


def test_a_name_is_unique_whatever_its_case(alice_client, ollama, charlie):
    response = alice_client.post(reverse("endpoint_create"), {**VLLM, "name": "OLLAMA"})

    assert response.status_code == 400
    assert "Your organisation already has an endpoint with this name: &quot;Ollama&quot;." in html(response)
    assert Endpoint.objects.count() == 1
    make_endpoint(charlie.membership.organisation, name="Ollama")  # another organisation may use the name


def test_the_list_takes_as_many_queries_for_six_endpoints_as_for_one(alice_client, acme, prices,
                                                                     django_assert_max_num_queries):
    make_endpoint(acme, "A", price=prices["api"])
    with django_assert_max_num_queries(12) as few:
        alice_client.get(reverse("endpoints"))
    for i in range(5):
        make_endpoint(acme, f"B{i}", price=prices["api"])
    with django_assert_max_num_queries(len(few.captured_queries)):
        alice_client.get(reverse("endpoints"))


def test_the_price_an_endpoint_is_billed_at_stays(acme, prices):
    make_endpoint(acme, price=prices["api"])

    with pytest.raises(ProtectedError):
        prices["api"].delete()
