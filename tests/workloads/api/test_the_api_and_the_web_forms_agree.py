"""The API and the web forms apply one set of rules: what one accepts, the other accepts too, and a workload or
probe created through the API can be saved unchanged on the web."""

import json

import pytest
from django import forms
from django.urls import reverse

from workloads.models import ApiPrice, GpuPrice, Probe, Workload

from ..conftest import MODEL

VALID = {"name": "Support tickets", "kind": "support", "description": "Q3 tickets", "expected_volume": 1200,
         "target_model": MODEL, "api_provider": "example-api", "api_model": MODEL}


def as_the_web_form_has_it(data: dict) -> dict:
    """The API's api_provider and api_model as the web form's one select of the pair sends them."""
    data = dict(data)
    return data | {"api": json.dumps([data.pop("api_provider"), data.pop("api_model")])}


def as_a_browser_sends_it(response) -> dict:
    """The rendered form posted back unchanged. A browser drops newlines from an <input>'s value (HTML's value
    sanitisation) but keeps them in a <textarea>, so a newline survives a save only in a textarea."""
    data = {}
    for field in response.context["form"]:
        value = "" if field.value() is None else str(field.value())
        if not isinstance(field.field.widget, forms.Textarea):
            value = value.replace("\r", "").replace("\n", "")
        data[field.html_name] = value
    return data


def ids(values: list) -> list[str]:
    return [f"{f}={len(v)} chars" if isinstance(v, str) and len(v) > 20 else f"{f}={v!r}" for f, v in values]


WORKLOAD_VALUES = [
    ("name", "x" * 200), ("name", "x" * 201), ("name", "nl\nname"), ("name", "tab\tname"),
    ("name", "line\u2028separator"), ("name", "\u200b"), ("name", "c1\x97control"), ("name", "rtl\u202egnp.txt"),
    ("name", "\u3164"), ("name", "\u2800\u2800"), ("name", "\u0301"), ("name", "Cafe\u0301"),
    ("name", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"),  # Persian needs its zero-width non-joiner
    # Invisible characters inside a name, refused: each one looks like "Contracts" on the pages.
    ("name", "Con\u200btracts"), ("name", "Con\u200ctracts"), ("name", "\u200dContracts"), ("name", "Con\u2060tracts"),
    ("name", "\ufeffContracts"), ("name", "Con\u00adtracts"), ("name", "\u200fContracts"), ("name", "Contracts\ufe0f"),
    ("name", "Con\u3164tracts"), ("name", "\u0645\u06cc\u200c\u200c\u062e\u0648\u0627\u0647\u0645"),  # doubled
    # Joiners and selectors that change what is drawn, accepted: a Devanagari half form, emoji.
    ("name", "\u0915\u094d\u200d\u0937"), ("name", "\U0001f469\u200d\U0001f4bb tickets"),
    ("name", "\u2764\ufe0f Support"),
    ("api_provider", "two\nlines"), ("api_provider", "example\u200b-api"), ("api_model", "not-in-the-price-book"),
    ("description", "two\nlines"), ("description", "x" * 5000), ("description", "x" * 5001),
    ("description", "x" * 10_000),
    ("expected_volume", 10**9), ("expected_volume", 10**9 + 1), ("expected_volume", 2**31 - 1),
]


@pytest.mark.parametrize(("field", "value"), WORKLOAD_VALUES, ids=ids(WORKLOAD_VALUES))
def test_a_workload_the_api_accepts_is_saved_unchanged_on_the_web(as_alice, alice_client, prices, field, value):
    web = alice_client.post(reverse("workload_create"), as_the_web_form_has_it(VALID | {field: value}))
    Workload.objects.all().delete()
    api = as_alice.post("/workloads", VALID | {field: value})

    assert (api.status_code == 201) == (web.status_code == 302), "the API and the web form disagree"
    if api.status_code == 201:
        url = reverse("workload_edit", args=[api.json()["id"]])
        response = alice_client.post(url, as_a_browser_sends_it(alice_client.get(url)))
        assert response.status_code == 302
        assert getattr(Workload.objects.get(), field) == value


PROBE_VALUES = [
    ("question", "q" * 2000), ("question", "q" * 2001), ("question", "q" * 5000), ("question", "two\nlines?"),
    ("answer", "a" * 500), ("answer", "a" * 501), ("answer", "a\nb"), ("answer", "a\tb"),
    # Invisible characters, refused in both: scoring reads them as spaces, so such an answer never matches.
    ("answer", "90\u200bdays"), ("answer", "\ufeff90 days"), ("question", "What is the notice\u00ad period?"),
    # Joiners that change what is drawn, accepted in both: Persian's inside a word, an emoji's.
    ("answer", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"),
    ("question", "Who owns \U0001f469\u200d\U0001f4bb?"),
]


@pytest.mark.parametrize(("field", "value"), PROBE_VALUES, ids=ids(PROBE_VALUES))
def test_a_probe_the_api_accepts_is_saved_unchanged_on_the_web(as_alice, alice_client, workload, field, value):
    data = {"question": "What is the notice period?", "answer": "90 days"} | {field: value}
    web = alice_client.post(reverse("probe_create", args=[workload.pk]), data)
    Probe.objects.all().delete()
    api = as_alice.post(f"/workloads/{workload.pk}/probes", data)

    assert (api.status_code == 201) == (web.status_code == 302), "the API and the web form disagree"
    if api.status_code == 201:
        url = reverse("probe_edit", args=[workload.pk, api.json()["id"]])
        response = alice_client.post(url, as_a_browser_sends_it(alice_client.get(url)))
        assert response.status_code == 302
        assert getattr(Probe.objects.get(), field) == value


@pytest.mark.parametrize("name", ["supplier contracts", "SUPPLIER CONTRACTS", "  Supplier Contracts ",
                                  "Supplier   contracts"])
def test_the_api_refuses_a_name_that_differs_only_in_case_or_spacing(as_alice, workload, name):
    response = as_alice.post("/workloads", VALID | {"name": name})

    assert response.status_code == 400
    assert response.json() == {
        "detail": 'your organisation already has a workload with this name: "Supplier contracts"'}
    assert list(Workload.objects.values_list("name", flat=True)) == ["Supplier contracts"]


def test_a_workload_may_change_the_case_of_its_own_name_but_not_take_another(alice_client, workload, acme):
    url = reverse("workload_edit", args=[workload.pk])
    response = alice_client.post(url, as_a_browser_sends_it(alice_client.get(url)) | {"name": "SUPPLIER CONTRACTS"})
    assert response.status_code == 302
    workload.refresh_from_db()
    assert workload.name == "SUPPLIER CONTRACTS"

    other = Workload.objects.create(organisation=acme, name="Support tickets", target_model=MODEL,
                                    api_provider="example-api")
    url = reverse("workload_edit", args=[other.pk])
    response = alice_client.post(url, as_a_browser_sends_it(alice_client.get(url)) | {"name": "supplier Contracts"})
    assert response.status_code == 400 and "already has a workload with this name" in response.content.decode()


PRICE_VALUES = [
    ("gpu", "device_class", "H\t200"), ("gpu", "source", "line 1\nline 2"), ("gpu", "source", "\u200b"),
    ("api", "provider", "demo\x01api"), ("api", "model", "m\nx"), ("api", "source", "quote \u2029 2027"),
    # Keys prices are found by: an invisible character would make them look right and never match.
    ("gpu", "device_class", "H2\u200b00"), ("api", "provider", "example\u2060-api"), ("api", "model", "\ufeffSmolLM2"),
    ("gpu", "device_class", "H200 NVL"), ("api", "source", "the vendor's price page, 3 Dec 2026"),
]


@pytest.mark.parametrize(("kind", "field", "value"), PRICE_VALUES, ids=[f"{k}.{f}={v!r}" for k, f, v in PRICE_VALUES])
def test_a_price_entry_is_refused_or_saved_alike_on_the_web_and_through_the_api(as_alice, alice_client, kind, field,
                                                                                value):
    data = ({"device_class": "L4", "per_hour": "0.8"} if kind == "gpu" else
            {"provider": "example-api", "model": MODEL, "input_per_mtok": "0.1", "output_per_mtok": "0.3"})
    data |= {"effective_from": "2026-12-01", "source": "a quote"} | {field: value}
    model = GpuPrice if kind == "gpu" else ApiPrice
    web = alice_client.post(reverse(f"{kind}_price_create"), data)
    web_saved = model.objects.count()
    model.objects.all().delete()
    api = as_alice.post(f"/prices/{kind}", data)

    assert (web.status_code == 302, web_saved) == (api.status_code == 201, model.objects.count())
    assert (api.status_code == 201) == (value in ("H200 NVL", "the vendor's price page, 3 Dec 2026"))
