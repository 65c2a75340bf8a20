"""An endpoint's key is stored as a Fernet token under a key derived from ENDPOINT_KEY_SECRET (SECRET_KEY when that
is unset); a new secret can go first while the old one still decrypts, and a key no secret decrypts is an error
that names the endpoint and never the token."""

import pytest

from workloads.models import Endpoint
from workloads.models.endpoint_keys import UnreadableKey, decrypt, encrypt

from .conftest import make_endpoint


def test_a_key_goes_in_encrypted_and_comes_back_out(acme):
    make_endpoint(acme, key="sk-round-trip-42")

    stored = Endpoint.objects.values_list("encrypted_key", flat=True).get()
    assert "sk-round-trip-42" not in stored and stored.startswith("gAAAAA")  # Fernet's version byte, in base64
    assert Endpoint.objects.get().api_key() == "sk-round-trip-42"
    assert encrypt("sk-round-trip-42") != stored  # a fresh IV each time: equal keys do not look equal


def test_without_a_secret_of_its_own_the_key_follows_secret_key(settings):
    settings.ENDPOINT_KEY_SECRETS = [settings.SECRET_KEY]
    token = encrypt("sk-derived")

    settings.SECRET_KEY = "another-secret-key"
    settings.ENDPOINT_KEY_SECRETS = [settings.SECRET_KEY]
    with pytest.raises(UnreadableKey):
        decrypt(token, "Ollama")


def test_a_new_secret_goes_first_and_the_old_one_still_decrypts(settings):
    settings.ENDPOINT_KEY_SECRETS = ["old-secret"]
    old = encrypt("sk-before-the-change")

    settings.ENDPOINT_KEY_SECRETS = ["new-secret", "old-secret"]
    new = encrypt("sk-after-the-change")
    assert (decrypt(old, "A"), decrypt(new, "B")) == ("sk-before-the-change", "sk-after-the-change")

    settings.ENDPOINT_KEY_SECRETS = ["new-secret"]
    assert decrypt(new, "B") == "sk-after-the-change"
    with pytest.raises(UnreadableKey):
        decrypt(old, "A")


def test_an_unreadable_key_names_the_endpoint_and_never_the_token(acme, settings):
    endpoint = make_endpoint(acme, name="Hosted GPT", key="sk-unreadable-later")
    settings.ENDPOINT_KEY_SECRETS = ["a-secret-that-never-encrypted-it"]

    with pytest.raises(UnreadableKey) as error:
        Endpoint.objects.get().api_key()

    message = str(error.value)
    assert message.startswith('the API key of endpoint "Hosted GPT" cannot be decrypted: ENDPOINT_KEY_SECRET')
    assert endpoint.encrypted_key not in message and endpoint.encrypted_key[:12] not in message
    assert error.value.__cause__ is None and error.value.__suppress_context__


def test_a_token_altered_in_the_database_is_unreadable_too(acme):
    make_endpoint(acme, key="sk-tampered")
    endpoint = Endpoint.objects.get()
    endpoint.encrypted_key = endpoint.encrypted_key[:-4] + "AAAA"

    with pytest.raises(UnreadableKey, match='endpoint "Ollama"'):
        endpoint.api_key()


def test_no_key_is_stored_as_nothing(acme):
    endpoint = make_endpoint(acme, key="")

    assert (endpoint.encrypted_key, endpoint.key_set, endpoint.api_key()) == ("", False, "")


def test_neither_str_nor_repr_shows_the_key(acme):
    endpoint = make_endpoint(acme, key="sk-not-in-repr")

    assert str(endpoint) == "Ollama (llama3.1:8b)"
    for text in (str(endpoint), repr(endpoint), str(vars(endpoint))):
        assert "sk-not-in-repr" not in text
