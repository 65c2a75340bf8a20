"""/api/endpoints: every member lists the organisation's endpoints, admins add and delete them; an answer says
whether an endpoint has a key (key_set), never the key."""

from workloads.models import Endpoint

from .conftest import VLLM, make_endpoint


def test_an_admin_adds_an_endpoint_with_a_key_and_a_price(as_alice, alice, acme, prices):
    response = as_alice.post("/endpoints", {**VLLM, "api_key": "sk-api-test-0123456789", "price_id": prices["api"].pk})

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "base_url", "model", "key_set", "price", "created_at"}
    assert (body["name"], body["base_url"], body["model"], body["key_set"]) == (*VLLM.values(), True)
    assert (body["price"]["provider"], body["price"]["model"]) == ("example-api", "SmolLM2-135M-Instruct")
    endpoint = Endpoint.objects.get(pk=body["id"])
    assert (endpoint.organisation, endpoint.created_by, endpoint.api_key()) == (acme, alice, "sk-api-test-0123456789")


def test_a_key_left_out_empty_or_null_is_no_key(as_alice):
    for i, key in enumerate(({}, {"api_key": ""}, {"api_key": None})):
        response = as_alice.post("/endpoints", {**VLLM, "name": f"Local {i}", **key})
        assert response.status_code == 201, response.json()
        assert (response.json()["key_set"], response.json()["price"]) == (False, None)
    assert set(Endpoint.objects.values_list("encrypted_key", flat=True)) == {""}


def test_every_member_lists_only_their_organisations_endpoints(as_vera, as_charlie, acme, ollama, charlie):
    make_endpoint(charlie.membership.organisation, name="Globex's own")

    assert [e["name"] for e in as_vera.get("/endpoints").json()] == ["Ollama"]
    assert [e["name"] for e in as_charlie.get("/endpoints").json()] == ["Globex's own"]
    assert as_vera.get("/endpoints").json()[0]["key_set"] is False


def test_only_admins_add_or_delete(as_bob, as_vera, ollama):
    for api in (as_bob, as_vera):
        refused = api.post("/endpoints", VLLM)
        assert refused.status_code == 403 and "only admins may do this" in refused.json()["detail"]
        assert api.delete(f"/endpoints/{ollama.pk}").status_code == 403
    assert list(Endpoint.objects.values_list("name", flat=True)) == ["Ollama"]


def test_an_admin_deletes_an_endpoint(as_alice, ollama):
    assert as_alice.delete(f"/endpoints/{ollama.pk}").status_code == 204
    assert not Endpoint.objects.exists()
    assert as_alice.delete(f"/endpoints/{ollama.pk}").status_code == 404


def test_another_organisations_endpoint_is_not_found(as_charlie, ollama):
    assert as_charlie.delete(f"/endpoints/{ollama.pk}").status_code == 404
    assert Endpoint.objects.filter(pk=ollama.pk).exists()


def test_a_name_is_unique_whatever_its_case(as_alice, ollama):
    response = as_alice.post("/endpoints", {**VLLM, "name": "ollama"})

    assert (response.status_code, response.json()) == (
        400, {"detail": 'name: your organisation already has an endpoint with this name: "Ollama"'})
    assert Endpoint.objects.count() == 1


def test_the_schema_never_offers_the_key_back(client, db):
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]

    assert "api_key" not in schemas["EndpointOut"]["properties"]
    key = schemas["EndpointIn"]["properties"]["api_key"]["anyOf"][0]
    assert (key["format"], key["writeOnly"], key["maxLength"]) == ("password", True, 500)
