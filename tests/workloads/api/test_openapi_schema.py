"""The OpenAPI schema at /api/openapi.json describes every endpoint, its auth and its inputs."""

PATHS = {
    "/api/workloads": {"get", "post"},
    "/api/workloads/{workload_id}": {"get", "delete"},
    "/api/workloads/{workload_id}/documents": {"get", "post"},
    "/api/workloads/{workload_id}/documents/{document_id}/text": {"get"},
    "/api/uploads/{upload_id}": {"get"},
    "/api/uploads/{upload_id}/cancel": {"post"},
    "/api/uploads/{upload_id}/retry": {"post"},
    "/api/workloads/{workload_id}/probes": {"get", "post"},
    "/api/workloads/{workload_id}/probes/import": {"post"},
    "/api/workloads/{workload_id}/runs": {"get", "post"},
    "/api/workloads/{workload_id}/runs.csv": {"get"},
    "/api/runs/{run_id}": {"get", "delete"},
    "/api/runs/{run_id}/cancel": {"post"},
    "/api/runs/{run_id}/retry": {"post"},
    "/api/runs/{run_id}/reprice": {"post"},
    "/api/workloads/{workload_id}/sweeps": {"get", "post"},
    "/api/sweeps/{sweep_id}": {"get"},
    "/api/sweeps/{sweep_id}/cancel": {"post"},
    "/api/sweeps/{sweep_id}/retry": {"post"},
    "/api/runs/{run_id}/summary": {"post"},
    "/api/runs/{run_id}/summary/cancel": {"post"},
    "/api/runs/{run_id}/summary.pdf": {"get"},
    "/api/runs/{run_id}/summary/email": {"post"},
    "/api/runs/{run_id}/export.csv": {"get"},
    "/api/runs/{run_id}/export.json": {"get"},
    "/api/workloads/{workload_id}/history.csv": {"get"},
    "/api/workloads/{workload_id}/history.json": {"get"},
    "/api/prices/gpu": {"get", "post"},
    "/api/prices/api": {"get", "post"},
    "/api/endpoints": {"get", "post"},
    "/api/endpoints/{endpoint_id}": {"delete"},
}


def _schema(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_it_lists_every_path_and_method(client, db):
    paths = _schema(client)["paths"]

    assert {path: set(methods) for path, methods in paths.items()} == PATHS


def test_it_requires_a_bearer_token_on_every_operation(client, db):
    schema = _schema(client)

    [(name, scheme)] = schema["components"]["securitySchemes"].items()
    assert scheme == {"type": "http", "scheme": "bearer"}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert operation["security"] == [{name: []}], (method, path)


def test_it_describes_input_fields_and_the_400_error_shape(client, db):
    schemas = _schema(client)["components"]["schemas"]

    assert "unique within your organisation" in schemas["WorkloadIn"]["properties"]["name"]["description"]
    assert schemas["WorkloadIn"]["additionalProperties"] is False
    assert schemas["RunIn"]["properties"]["group_size"]["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 1024}
    assert schemas["ErrorOut"]["properties"] == {"detail": {"title": "Detail", "type": "string"}}
    assert "answers 400, not 422" in _schema(client)["info"]["description"]


def test_it_documents_the_upload_as_multipart_files(client, db):
    upload = _schema(client)["paths"]["/api/workloads/{workload_id}/documents"]["post"]

    assert "multipart/form-data" in upload["requestBody"]["content"]
    assert set(upload["responses"]) >= {"202", "400", "401", "404"}


def test_the_json_downloads_are_documented_as_json_objects(client, db):
    paths = _schema(client)["paths"]

    def body(path: str) -> dict:
        return paths[path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]

    assert body("/api/runs/{run_id}/export.json")["required"] == ["workload", "run"]
    history = body("/api/workloads/{workload_id}/history.json")
    assert history["type"] == "object" and history["properties"]["runs"]["type"] == "array"


def test_sweeps_are_listed_with_their_response_schemas(client, db):
    paths, schemas = _schema(client)["paths"], _schema(client)["components"]["schemas"]

    def answers(path: str, method: str) -> dict:
        return paths[path][method]["responses"]

    assert answers("/api/workloads/{workload_id}/sweeps", "post")["202"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SweepDetailOut"}
    for path in ("/api/sweeps/{sweep_id}/cancel", "/api/sweeps/{sweep_id}/retry"):
        assert answers(path, "post")["200"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/SweepOut"}
        assert set(answers(path, "post")) >= {"200", "401", "403", "404", "409"}
    assert schemas["SweepOut"]["properties"]["status"]["enum"] == ["queued", "running", "succeeded", "failed",
                                                                   "cancelled"]
    assert schemas["SweepIn"]["additionalProperties"] is False
