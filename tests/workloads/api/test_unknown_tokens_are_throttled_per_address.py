"""Unknown API tokens count against their address, with a limit of their own: past it, tokens from that address get
429, even a valid one, while its login form, and tokens from other addresses, are not affected."""

from django.urls import reverse

from tests.workloads.conftest import PASSWORD
from workloads.models import ApiToken

OFFICE = "203.0.113.5"


def _get(client, token: str, address: str = OFFICE):
    return client.get("/api/workloads", headers={"Authorization": f"Bearer {token}"}, REMOTE_ADDR=address)


def _guess_tokens_until_locked(client, settings):
    for i in range(settings.TOKEN_FAILURE_LIMIT - 1):
        assert _get(client, f"cp_guess{i}").status_code == 401
    locked = _get(client, "cp_guess-last")
    assert locked.status_code == 429
    assert "too many unknown API tokens from this address" in locked.json()["detail"]


def test_an_address_that_guessed_too_many_tokens_gets_429_even_with_a_valid_one(client, alice, settings):
    valid = ApiToken.issue(alice)
    _guess_tokens_until_locked(client, settings)

    refused = _get(client, valid)
    assert refused.status_code == 429 and refused["Content-Type"].startswith("application/json")
    assert _get(client, valid, "203.0.113.6").status_code == 200  # other addresses are not affected


def test_token_guesses_leave_the_login_form_open_at_that_address(client, alice, bob, settings):
    _guess_tokens_until_locked(client, settings)

    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORD}, REMOTE_ADDR=OFFICE)
    assert response.status_code == 302


def test_wrong_passwords_leave_tokens_from_that_address_working(client, alice, bob, settings):
    valid = ApiToken.issue(bob)
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"}, REMOTE_ADDR=OFFICE)

    assert _get(client, valid).status_code == 200
