"""Exports are scoped to the user's organisation: another organisation's ids are 404, and a login or token is needed."""

import pytest
from django.urls import reverse

from tests.workloads.api.conftest import Api

RUN_PAGES = ["run_export_csv", "run_export_json"]
WORKLOAD_PAGES = ["workload_history_csv", "workload_history_json"]
RUN_API = ["/runs/{}/export.csv", "/runs/{}/export.json"]
WORKLOAD_API = ["/workloads/{}/history.csv", "/workloads/{}/history.json"]


def _pages(run_pk: int, workload_pk: int) -> list[str]:
    return ([reverse(name, args=[run_pk]) for name in RUN_PAGES]
            + [reverse(name, args=[workload_pk]) for name in WORKLOAD_PAGES])


def _api(run_pk: int, workload_pk: int) -> list[str]:
    return [path.format(run_pk) for path in RUN_API] + [path.format(workload_pk) for path in WORKLOAD_API]


def test_charlie_gets_404_for_acmes_exports_on_the_pages(charlie_client, finished_run, workload):
    for url in _pages(finished_run.pk, workload.pk):
        response = charlie_client.get(url)
        assert response.status_code == 404, url
        assert b"Supplier contracts" not in response.content


def test_charlie_gets_404_for_acmes_exports_in_the_api(as_charlie, finished_run, workload):
    for path in _api(finished_run.pk, workload.pk):
        response = as_charlie.get(path)
        assert response.status_code == 404, path
        assert "detail" in response.json()


def test_missing_ids_are_404_too(as_alice, alice_client, db):
    for url in _pages(999999, 999999):
        assert alice_client.get(url).status_code == 404, url
    for path in _api(999999, 999999):
        assert as_alice.get(path).status_code == 404, path


def test_the_pages_send_a_stranger_to_the_login(client, finished_run, workload):
    for url in _pages(finished_run.pk, workload.pk):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url


@pytest.mark.parametrize("token", [None, "cp_not-a-real-token"])
def test_the_api_needs_a_valid_token(client, finished_run, workload, token):
    for path in _api(finished_run.pk, workload.pk):
        response = Api(client, token).get(path)
        assert response.status_code == 401, path
        assert b"Supplier contracts" not in response.content
