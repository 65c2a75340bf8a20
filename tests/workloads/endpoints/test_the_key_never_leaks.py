"""An API key, once given, appears nowhere but in the worker's hands: not on any page (the endpoints page, the
dashboard, the organisation page, the admin's list and change pages), not in any API answer (a list, a creation, a
refusal of a request that carried it), not in the log, not in the SQL sent to the database, and not in plain text in
its column."""

import json
import logging
import secrets

from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from workloads.models import Endpoint

from .conftest import VLLM


def _distinctive_key() -> str:
    return "sk-leaktest-" + secrets.token_hex(24)


def _leaks(text: str, key: str) -> list[str]:
    """Which tell-tale parts of the key the text holds: all of it, its first 12 characters, its random part's."""
    parts = (key, key[:12], key[12:24])
    return [part for part in parts if part in text]


def test_the_key_appears_in_no_page_answer_log_or_query(alice_client, as_alice, acme, prices, caplog):
    caplog.set_level(logging.DEBUG)
    form_key, api_key = _distinctive_key(), _distinctive_key()
    seen = {}  # what a reader could see -> its text
    sent = []  # every statement and its parameters, as the database received them

    def record(execute, sql, params, many, context):
        sent.append(repr((sql, params)))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        added = alice_client.post(reverse("endpoint_create"), {**VLLM, "api_key": form_key}, follow=True)
        seen["the form's page after adding"] = added.content.decode()
        refused = alice_client.post(reverse("endpoint_create"), {**VLLM, "name": "Broken", "base_url": "ftp://x/v1",
                                                                 "api_key": form_key})
        assert refused.status_code == 400
        seen["the form shown again with an error"] = refused.content.decode()
        seen["the form, the name taken"] = alice_client.post(reverse("endpoint_create"), {
            **VLLM, "api_key": form_key}).content.decode()

        created = as_alice.post("/endpoints", {**VLLM, "name": "Through the API", "api_key": api_key,
                                               "price_id": prices["api"].pk})
        assert created.status_code == 201
        seen["the API's creation"] = created.content.decode()
        for name, body in {
            "a bad URL": {**VLLM, "name": "Bad", "base_url": "javascript:alert(1)", "api_key": api_key},
            "a name taken": {**VLLM, "name": "through the api", "api_key": api_key},
            "a key with a space": {**VLLM, "name": "Spaced", "api_key": api_key + " x"},
            "a key too long": {**VLLM, "name": "Long", "api_key": api_key * 20},
            "a key in a list": {**VLLM, "name": "Listed", "api_key": [api_key]},
            "a misspelt field": {**VLLM, "name": "Misspelt", "apikey": api_key},
            "a price of nobody's": {**VLLM, "name": "Unpriced", "api_key": api_key, "price_id": 10**9},
        }.items():
            answer = as_alice.post("/endpoints", body)
            assert answer.status_code == 400, name
            seen[f"the API's refusal of {name}"] = answer.content.decode()
        broken_json = as_alice.post("/endpoints", raw='{"name": "Cut", "api_key": "' + api_key)
        assert broken_json.status_code == 400
        seen["the API's refusal of broken JSON"] = broken_json.content.decode()

    endpoint = Endpoint.objects.get(name=VLLM["name"])
    admin = User.objects.create_superuser("root", "root@example.com", "x")
    admin_client = Client()
    admin_client.force_login(admin)
    pages = {"the endpoints page": (alice_client, reverse("endpoints")),
             "the dashboard": (alice_client, reverse("dashboard")),
             "the organisation page": (alice_client, reverse("organisation_edit")),
             "the price book": (alice_client, reverse("price_book")),
             "the admin's list": (admin_client, reverse("admin:workloads_endpoint_changelist")),
             "the admin's change page": (admin_client, reverse("admin:workloads_endpoint_change", args=[endpoint.pk])),
             "the API's list": (as_alice, "/endpoints"), "the API's schema": (as_alice, "/openapi.json")}
    for name, (reader, path) in pages.items():
        response = reader.get(path)
        assert response.status_code == 200, name
        seen[name] = response.content.decode()
    seen["the log"] = caplog.text
    seen["the SQL sent"] = "\n".join(sent)
    assert 'INSERT INTO "workloads_endpoint"' in seen["the SQL sent"]
    assert "Bad Request: /api/endpoints" in seen["the log"]

    for key in (form_key, api_key):
        assert {name: _leaks(text, key) for name, text in seen.items() if _leaks(text, key)} == {}
    assert 'value="sk-' not in seen["the form shown again with an error"]
    assert "key: set" in seen["the endpoints page"] and json.loads(seen["the API's list"])[0]["key_set"] is True

    with connection.cursor() as cursor:
        cursor.execute("SELECT name, encrypted_key FROM workloads_endpoint ORDER BY name")
        stored = dict(cursor.fetchall())
    assert set(stored) == {VLLM["name"], "Through the API"}
    assert _leaks(stored[VLLM["name"]], form_key) == [] and _leaks(stored["Through the API"], api_key) == []
    assert (endpoint.api_key(), Endpoint.objects.get(name="Through the API").api_key()) == (form_key, api_key)
