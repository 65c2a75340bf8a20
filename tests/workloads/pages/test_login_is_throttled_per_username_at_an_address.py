"""Wrong passwords are counted per username and address together: past the limit, even the right password for that
username is refused from that address with 429 until the failures are old enough, while every other username at
that address (an office behind one NAT address) and that username elsewhere still sign in."""

import datetime as dt

from axes.models import AccessAttempt
from django.urls import reverse

from tests.workloads.conftest import PASSWORD

OFFICE = "203.0.113.7"  # one NAT address for a whole office
ELSEWHERE = "192.0.2.200"


def _log_in(client, username: str, password: str, address: str = OFFICE):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def _lock_alice_at_the_office(client, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert _log_in(client, "alice", "wrong").status_code == 200  # the form again, with its error
    locked = _log_in(client, "alice", "wrong")
    assert locked.status_code == 429
    assert "too many failed sign-ins for this username from this address" in locked.content.decode()


def test_the_right_password_is_refused_at_that_address_after_too_many_wrong_ones(client, alice, settings):
    _lock_alice_at_the_office(client, settings)

    refused = _log_in(client, "alice", PASSWORD)
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_others_at_that_address_still_sign_in(client, alice, bob, settings):
    _lock_alice_at_the_office(client, settings)

    assert _log_in(client, "bob", PASSWORD).status_code == 302
    assert client.session["_auth_user_id"] == str(bob.pk)


def test_the_same_username_still_signs_in_from_another_address(client, alice, settings):
    # Locking a username everywhere would let anyone lock any user out by guessing at their name.
    _lock_alice_at_the_office(client, settings)

    assert _log_in(client, "alice", PASSWORD, address=ELSEWHERE).status_code == 302


def test_an_address_guessing_many_usernames_locks_none_of_the_others(client, bob, settings):
    for i in range(settings.LOGIN_FAILURE_LIMIT * 2):
        assert _log_in(client, f"nobody{i}", "wrong").status_code == 200

    assert _log_in(client, "bob", PASSWORD).status_code == 302


def test_the_lock_ends_when_the_failures_are_older_than_the_lockout(client, alice, settings):
    _lock_alice_at_the_office(client, settings)
    assert _log_in(client, "alice", PASSWORD).status_code == 429

    # As if LOGIN_LOCKOUT_MINUTES had passed since the last failure.
    AccessAttempt.objects.update(attempt_time=dt.datetime.now(dt.UTC) - dt.timedelta(
        minutes=settings.LOGIN_LOCKOUT_MINUTES, seconds=1))

    assert _log_in(client, "alice", PASSWORD).status_code == 302


def test_behind_a_proxy_the_address_is_the_one_the_proxy_saw(client, alice, settings):
    settings.TRUSTED_PROXIES = 1
    for i in range(settings.LOGIN_FAILURE_LIMIT):
        # A client's own X-Forwarded-For entries stand left of the proxy's: forging them changes nothing.
        client.post(reverse("login"), {"username": "alice", "password": "wrong"}, REMOTE_ADDR="127.0.0.1",
                    HTTP_X_FORWARDED_FOR=f"10.0.0.{i}, 198.51.100.20")

    assert client.post(reverse("login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="127.0.0.1",
                       HTTP_X_FORWARDED_FOR="198.51.100.20").status_code == 429
    assert client.post(reverse("login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="127.0.0.1",
                       HTTP_X_FORWARDED_FOR="198.51.100.21").status_code == 302
