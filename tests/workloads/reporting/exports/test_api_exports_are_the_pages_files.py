"""The API's exports are the same files as the pages': the same bytes, types and attachment names."""

from django.urls import reverse


def test_the_api_gives_the_same_files_as_the_pages(as_alice, alice_client, finished_run, workload):
    pairs = [
        (f"/runs/{finished_run.pk}/export.csv", reverse("run_export_csv", args=[finished_run.pk])),
        (f"/runs/{finished_run.pk}/export.json", reverse("run_export_json", args=[finished_run.pk])),
        (f"/workloads/{workload.pk}/history.csv", reverse("workload_history_csv", args=[workload.pk])),
        (f"/workloads/{workload.pk}/history.json", reverse("workload_history_json", args=[workload.pk])),
    ]
    for api_path, page_url in pairs:
        api, page = as_alice.get(api_path), alice_client.get(page_url)
        assert api.status_code == page.status_code == 200, api_path
        assert api.content == page.content, api_path
        for header in ("Content-Type", "Content-Disposition"):
            assert api[header] == page[header], (api_path, header)


def test_the_api_history_csv_is_its_runs_csv(as_alice, finished_run, workload):
    history = as_alice.get(f"/workloads/{workload.pk}/history.csv")

    assert history.content == as_alice.get(f"/workloads/{workload.pk}/runs.csv").content
    assert history.content.decode().count(f"\r\n{finished_run.pk},") == 4


def test_the_schema_documents_the_exports_as_files(client, db):
    paths = client.get("/api/openapi.json").json()["paths"]

    assert "text/csv" in paths["/api/runs/{run_id}/export.csv"]["get"]["responses"]["200"]["content"]
    assert "application/json" in paths["/api/runs/{run_id}/export.json"]["get"]["responses"]["200"]["content"]
    assert "text/csv" in paths["/api/workloads/{workload_id}/history.csv"]["get"]["responses"]["200"]["content"]
    assert set(paths["/api/workloads/{workload_id}/history.json"]["get"]["responses"]) >= {"200", "401", "404"}
