"""Unknown API tokens count as failed sign-ins from their address, as wrong passwords do on the login form."""

from tests.workloads.conftest import PASSWORD
from workloads.models import ApiToken


def _get(client, token: str, address: str):
    return client.get("/api/workloads", headers={"Authorization": f"Bearer {token}"}, REMOTE_ADDR=address)


def test_an_address_that_guessed_too_many_tokens_gets_429_even_with_a_valid_one(client, alice, settings):
    valid = ApiToken.issue(alice)
    for i in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert _get(client, f"cp_guess{i}", "203.0.113.5").status_code == 401

    locked = _get(client, "cp_guess-last", "203.0.113.5")
    assert locked.status_code == 429
    assert "too many failed sign-ins" in locked.json()["detail"]

    refused = _get(client, valid, "203.0.113.5")
    assert refused.status_code == 429 and refused["Content-Type"].startswith("application/json")
    assert _get(client, valid, "203.0.113.6").status_code == 200  # other addresses are not affected


def test_token_guesses_lock_the_address_out_of_the_login_form_too(client, alice, settings):
    for i in range(settings.LOGIN_FAILURE_LIMIT):
        _get(client, f"cp_guess{i}", "203.0.113.8")

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="203.0.113.8")
    assert response.status_code == 429
