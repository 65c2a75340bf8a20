"""Wrong passwords are counted per username and per address: past the limit, even the right password is refused
with 429 until the failures are old enough."""

import datetime as dt

from axes.models import AccessAttempt
from django.urls import reverse

from tests.workloads.conftest import PASSWORD


def _log_in(client, username: str, password: str, address: str = "203.0.113.7"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def test_the_right_password_is_refused_after_too_many_wrong_ones(client, alice, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert _log_in(client, "alice", "wrong").status_code == 200  # the form again, with its error

    locked = _log_in(client, "alice", "wrong")
    assert locked.status_code == 429
    assert "too many failed sign-ins" in locked.content.decode()

    refused = _log_in(client, "alice", PASSWORD)
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_username_is_locked_whichever_addresses_the_guesses_come_from(client, alice, settings):
    for i in range(settings.LOGIN_FAILURE_LIMIT):
        _log_in(client, "alice", "wrong", address=f"198.51.100.{i + 1}")

    assert _log_in(client, "alice", PASSWORD, address="192.0.2.200").status_code == 429


def test_an_address_is_locked_whichever_usernames_it_tries(client, alice, bob, settings):
    for i in range(settings.LOGIN_FAILURE_LIMIT):
        _log_in(client, f"nobody{i}", "wrong", address="198.51.100.9")

    assert _log_in(client, "bob", PASSWORD, address="198.51.100.9").status_code == 429
    assert _log_in(client, "bob", PASSWORD, address="198.51.100.10").status_code == 302  # another address logs in


def test_the_lock_ends_when_the_failures_are_older_than_the_lockout(client, alice, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        _log_in(client, "alice", "wrong")
    assert _log_in(client, "alice", PASSWORD).status_code == 429

    # As if LOGIN_LOCKOUT_MINUTES had passed since the last failure.
    AccessAttempt.objects.update(attempt_time=dt.datetime.now(dt.UTC) - dt.timedelta(
        minutes=settings.LOGIN_LOCKOUT_MINUTES, seconds=1))

    assert _log_in(client, "alice", PASSWORD).status_code == 302


def test_behind_a_proxy_the_address_is_the_one_the_proxy_saw(client, alice, bob, settings):
    settings.TRUSTED_PROXIES = 1
    for i in range(settings.LOGIN_FAILURE_LIMIT):
        # A client's own X-Forwarded-For entries stand left of the proxy's: forging them changes nothing.
        client.post(reverse("login"), {"username": f"nobody{i}", "password": "wrong"}, REMOTE_ADDR="127.0.0.1",
                    HTTP_X_FORWARDED_FOR=f"10.0.0.{i}, 198.51.100.20")

    assert client.post(reverse("login"), {"username": "bob", "password": PASSWORD}, REMOTE_ADDR="127.0.0.1",
                       HTTP_X_FORWARDED_FOR="198.51.100.20").status_code == 429
    assert client.post(reverse("login"), {"username": "bob", "password": PASSWORD}, REMOTE_ADDR="127.0.0.1",
                       HTTP_X_FORWARDED_FOR="198.51.100.21").status_code == 302
