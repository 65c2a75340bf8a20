"""Endpoints' API keys, encrypted at rest with Fernet (AES-128-CBC, authenticated by HMAC-SHA256).

Each secret of settings.ENDPOINT_KEY_SECRETS becomes a Fernet key through HKDF-SHA256, so that a secret may be any
string (SECRET_KEY itself when ENDPOINT_KEY_SECRET is unset) and the key that encrypts is never one Django signs
with. MultiFernet encrypts with the first secret and decrypts with any of them: a new secret goes first, and the old
one, kept after it, still reads what it encrypted.
"""

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

# Binds the derived keys to this one use: the same secret would derive other keys for any other purpose.
PURPOSE = b"costplanner endpoint api keys"


class UnreadableKey(Exception):
    """A stored key that none of the secrets decrypts: the secrets changed since, or the column was altered."""


def _fernet(secret: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=PURPOSE).derive(secret.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def _fernets() -> MultiFernet:
    # Built on each call (microseconds): keys are read once a run, and a changed setting applies at once.
    return MultiFernet([_fernet(secret) for secret in settings.ENDPOINT_KEY_SECRETS])


def encrypt(plain: str) -> str:
    """The key as a Fernet token: URL-safe base64, ASCII."""
    return _fernets().encrypt(plain.encode()).decode("ascii")


def decrypt(token: str, endpoint_name: str) -> str:
    """The key the token holds. The error names the endpoint and never the token: it reaches logs and run pages."""
    try:
        return _fernets().decrypt(token.encode("ascii")).decode()
    except (InvalidToken, UnicodeError):
        raise UnreadableKey(
            f'the API key of endpoint "{endpoint_name}" cannot be decrypted: ENDPOINT_KEY_SECRET (SECRET_KEY when it '
            "is unset) no longer holds the secret it was encrypted with. Add the old secret back after the new one, "
            "or delete the endpoint and add it again with its key") from None
