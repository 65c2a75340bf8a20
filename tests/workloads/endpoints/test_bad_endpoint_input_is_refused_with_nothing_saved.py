"""Every entry of the endpoint form and of POST /api/endpoints is checked: empty, huge, malicious or of the wrong
type, it is refused with a message saying what is wrong, and nothing is saved."""

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import ApiPrice, Endpoint

from .conftest import VLLM

HUGE = "a" * 10_240
NOT_A_KEY = "must be printable ASCII without spaces or line breaks, as API keys are: paste it again without them"

BAD_URLS = [
    ("", "This field is required", "String should have at least 1 character"),
    ("http://gpu-box/" + HUGE, "at most 500 characters", "at most 500 characters"),
    ("javascript:alert(1)", "start with http:// or https://", "start with http:// or https://"),
    ("file:///etc/passwd", "start with http:// or https://", "start with http:// or https://"),
    ("ftp://gpu-box/v1", "start with http:// or https://", "start with http:// or https://"),
    ("gpu-box:8000/v1", "start with http:// or https://", "start with http:// or https://"),
    ("http://user:pass@gpu-box/v1", "not hold a user name or password", "not hold a user name or password"),
    ("http://gpu-box/v1 /x", "one line without spaces", "one line without spaces"),
    ("http://gpu-box/v1\n/x", "one line without spaces", "must be one line of visible text"),
    ("http://gpu-box\\@evil/v1", "one line without spaces", "one line without spaces"),
    ("http://bücher.example/v1", "xn-- form", "xn-- form"),
    ("http://gpu-box/v1?key=1", "not have a query", "not have a query"),
    ("http://gpu-box/v1#top", "or a fragment", "or a fragment"),
    ("http:///v1", "name a host", "name a host"),
    ("http://[::1/v1", "name a host or an address", "name a host or an address"),
    ("http://[not-an-address]/v1", "name a host or an address", "name a host or an address"),
    ("http://gpu-box:99999/v1", "port that is not a number from 1 to 65535", "port that is not a number"),
]
BAD_KEYS = [
    ("sk-" + HUGE, "must be at most 500 characters, not 10243"),
    ("sk-with space", NOT_A_KEY),
    ("sk-with-newline\n", NOT_A_KEY),
    ("\tsk-with-tab", NOT_A_KEY),
    ("sk-bell\x07", NOT_A_KEY),
    ("sk-ünïcode", NOT_A_KEY),
    (" ", NOT_A_KEY),
]


@pytest.mark.parametrize("url, form_message, _", BAD_URLS)
def test_the_form_refuses_a_bad_base_url(alice_client, url, form_message, _):
    response = alice_client.post(reverse("endpoint_create"), {**VLLM, "base_url": url})

    assert response.status_code == 400
    assert form_message in html(response)
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("url, _, api_message", BAD_URLS)
def test_the_api_refuses_a_bad_base_url(as_alice, url, _, api_message):
    response = as_alice.post("/endpoints", {**VLLM, "base_url": url})

    assert response.status_code == 400
    assert response.json()["detail"].startswith("base_url: ") and api_message in response.json()["detail"]
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("key, message", BAD_KEYS)
def test_a_bad_key_is_refused_without_being_quoted(alice_client, as_alice, key, message):
    page = html(alice_client.post(reverse("endpoint_create"), {**VLLM, "api_key": key}))
    answer = as_alice.post("/endpoints", {**VLLM, "api_key": key})

    assert f"The API key {message}." in page and (not key.strip() or key.strip() not in page)
    assert (answer.status_code, answer.json()) == (400, {"detail": f"api_key: {message}"})
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("field, value, message", [
    ("name", "", "This field is required."),
    ("name", HUGE, "Ensure this value has at most 100 characters (it has 10240)."),
    ("name", "two\nlines", "Must be one line of visible text without control characters."),
    ("name", "Ol\u200blama", "Must not contain invisible characters (U+200B ZERO WIDTH SPACE)."),
    ("model", "", "This field is required."),
    ("model", HUGE, "Ensure this value has at most 200 characters (it has 10240)."),
    ("price", "abc", "Select a valid choice."),
])
def test_the_form_refuses_other_bad_fields(alice_client, field, value, message):
    response = alice_client.post(reverse("endpoint_create"), {**VLLM, field: value})

    assert response.status_code == 400
    assert message in html(response)
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("change, detail", [
    ({"name": ""}, "name: String should have at least 1 character"),
    ({"name": HUGE}, "name: String should have at most 100 characters"),
    ({"name": 7}, "name: Input should be a valid string"),
    ({"model": None}, "model: Input should be a valid string"),
    ({"model": HUGE}, "model: String should have at most 200 characters"),
    ({"base_url": 8000}, "base_url: Input should be a valid string"),
    ({"base_url": ["http://gpu-box/v1"]}, "base_url: Input should be a valid string"),
    ({"api_key": ["sk-in-a-list"]}, "api_key: Input should be a valid string"),
    ({"api_key": {"key": "sk-in-an-object"}}, "api_key: Input should be a valid string"),
    ({"price_id": "cheap"}, "price_id: Input should be a valid integer, unable to parse string as an integer"),
    ({"price_id": 0}, "price_id: Input should be greater than or equal to 1"),
    ({"apikey": "sk-misspelt"}, "apikey: Extra inputs are not permitted"),
])
def test_the_api_refuses_other_bad_fields(as_alice, change, detail):
    response = as_alice.post("/endpoints", {**VLLM, **change})

    assert (response.status_code, response.json()) == (400, {"detail": detail})
    assert "sk-" not in response.content.decode()
    assert not Endpoint.objects.exists()


def test_a_price_of_another_organisation_is_not_found(alice_client, as_alice, charlie):
    theirs = ApiPrice.objects.create(organisation=charlie.membership.organisation, provider="globex-api", model="m",
                                     input_per_mtok=1, output_per_mtok=2, effective_from="2026-01-01", source="theirs")

    page = html(alice_client.post(reverse("endpoint_create"), {**VLLM, "price": theirs.pk}))
    answer = as_alice.post("/endpoints", {**VLLM, "price_id": theirs.pk})
    missing = as_alice.post("/endpoints", {**VLLM, "price_id": theirs.pk + 1000})

    assert "Select a valid choice." in page and "globex-api" not in page
    assert (answer.status_code, answer.json()["detail"]) == (
        400, f"price_id: your price book has no API price {theirs.pk} (GET /api/prices/api lists them)")
    assert missing.json()["detail"] == answer.json()["detail"].replace(str(theirs.pk), str(theirs.pk + 1000))
    assert not Endpoint.objects.exists()


def test_a_name_in_html_is_kept_as_text_and_shown_escaped(alice_client, as_alice):
    evil = '<script>alert("x")</script>'
    alice_client.post(reverse("endpoint_create"), {**VLLM, "name": evil})
    as_alice.post("/endpoints", {**VLLM, "name": evil + "!", "model": evil})

    page = alice_client.get(reverse("endpoints")).content.decode()
    assert evil not in page
    assert page.count("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;") >= 3
    assert Endpoint.objects.filter(name=evil).exists()


def test_surrounding_spaces_are_stripped_from_the_name_url_and_model(as_alice):
    response = as_alice.post("/endpoints", {"name": " Ollama ", "base_url": " http://localhost:11434/v1 ",
                                            "model": " llama3.1:8b "})

    assert response.status_code == 201
    assert Endpoint.objects.values_list("name", "base_url", "model").get() == (
        "Ollama", "http://localhost:11434/v1", "llama3.1:8b")
