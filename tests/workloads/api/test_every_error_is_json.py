"""Errors the framework answers itself come in the API's one shape too: an unknown path, a method a path does not
take. Downloads and the docs page keep their own types, and pages outside /api/ keep Django's."""


def test_an_unknown_path_is_a_json_404(as_alice):
    response = as_alice.get("/no-such-thing")

    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "no such API path: /api/no-such-thing (the schema is at /api/openapi.json)"}


def test_a_method_a_path_does_not_take_is_a_json_405(as_alice, workload):
    response = as_alice.client.put(f"/api/workloads/{workload.pk}", headers=as_alice.headers)

    assert response.status_code == 405 and response["Content-Type"] == "application/json"
    assert set(response["Allow"].split(", ")) == {"GET", "DELETE"}
    assert response.json()["detail"].startswith("PUT is not allowed here: use ")


def test_other_answers_keep_their_types(as_alice, client, workload):
    assert as_alice.get(f"/workloads/{workload.pk}/runs.csv")["Content-Type"].startswith("text/csv")
    assert client.get("/api/docs")["Content-Type"].startswith("text/html")
    outside = client.get("/no-such-page/")
    assert outside.status_code == 404 and outside["Content-Type"].startswith("text/html")
