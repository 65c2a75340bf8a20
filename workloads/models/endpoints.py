"""An organisation's OpenAI-compatible endpoints: a hosted provider, a vLLM, SGLang or llama.cpp server on its own GPU,
Ollama. A comparison can call one instead of the local model.

The API key is stored encrypted (endpoint_keys) and leaves this module only through Endpoint.api_key(), for the
worker's client: no page, API answer, admin page, log line or error message shows any part of it.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower

from workloads.models import endpoint_keys
from workloads.models.organisations import Organisation
from workloads.models.price_book import ApiPrice

NAME_MAX = 100
BASE_URL_MAX = 500
MODEL_MAX = 200
API_KEY_MAX = 500

# The characters RFC 3986 allows in a URL. Anything else (a space, a line break, a backslash, which browsers and
# some clients read as "/" and others do not) would have two readings of where the request goes.
_URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")
# API keys are printable ASCII without spaces: "sk-...", "gsk_...", a JWT.
_KEY_CHARACTERS = re.compile(r"[!-~]*")


def base_url_problem(url: str) -> str | None:
    """Why url cannot be an endpoint's base URL, as a clause for the form and the API alike; or None.

    The clause never quotes the URL: one that breaks the rules may hold a password.
    """
    if len(url) > BASE_URL_MAX:
        return f"must be at most {BASE_URL_MAX} characters, not {len(url)}"
    if not _URL_CHARACTERS.fullmatch(url):
        return ("must be one line without spaces, in the characters a URL may hold: write a host name in its xn-- "
                "form and percent-encode the rest")
    try:
        parts = urlsplit(url)
    except ValueError:  # brackets around something that is not an IPv6 address
        return 'must name a host or an address, as in "http://gpu-box:8000/v1" or "http://[::1]:8000/v1"'
    if parts.scheme not in ("http", "https"):
        return 'must start with http:// or https://, as in "https://api.openai.com/v1"'
    if "@" in parts.netloc:
        return "must not hold a user name or password: give the API key in its own field"
    if "?" in url or "#" in url:
        return "must not have a query (?...) or a fragment (#...): the client adds the path it calls"
    try:
        bad_port = parts.port == 0  # None when the URL names no port
    except ValueError:  # not a number, or past 65535
        bad_port = True
    if bad_port:
        return "has a port that is not a number from 1 to 65535"
    if not parts.hostname:
        return 'must name a host, as in "http://gpu-box:8000/v1"'
    return None


def api_key_problem(key: str) -> str | None:
    """Why key cannot be an endpoint's API key, as a clause; or None. Never quotes the key, nor any part of it."""
    if len(key) > API_KEY_MAX:
        return f"must be at most {API_KEY_MAX} characters, not {len(key)}"
    if not _KEY_CHARACTERS.fullmatch(key):
        return "must be printable ASCII without spaces or line breaks, as API keys are: paste it again without them"
    return None


def validate_base_url(url: str) -> None:
    if problem := base_url_problem(url):
        raise ValidationError(f"{problem[0].upper()}{problem[1:]}.")


class Endpoint(models.Model):
    """An OpenAI-compatible server (`/v1/chat/completions` under base_url) and the model it serves."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="endpoints")
    name = models.CharField(max_length=NAME_MAX)
    base_url = models.CharField(max_length=BASE_URL_MAX, validators=[validate_base_url],
                                help_text='"https://api.openai.com/v1", "http://gpu-box:8000/v1", '
                                          '"http://localhost:11434/v1"')
    model = models.CharField(max_length=MODEL_MAX, help_text="the model's name as the endpoint serves it")
    # A Fernet token (endpoint_keys), or "" for an endpoint that needs no key (Ollama, a local vLLM); never the key.
    encrypted_key = models.TextField(blank=True, editable=False)
    # Billed at this API model of the price book; none: its tokens cost nothing but the device they run on.
    price = models.ForeignKey(ApiPrice, on_delete=models.PROTECT, null=True, blank=True, related_name="endpoints")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        # As workload names: two endpoints told apart only by case would be told apart by nobody.
        constraints = [models.UniqueConstraint(Lower("name"), "organisation", name="unique_endpoint_name_any_case")]
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.model})"

    @property
    def reader(self) -> str:
        """"GPU box (smollm2 at http://gpu-box:8000/v1)": who read a run's documents, as the run keeps it."""
        return f"{self.name} ({self.model} at {self.base_url})"

    @property
    def key_set(self) -> bool:
        return bool(self.encrypted_key)

    def set_api_key(self, key: str) -> None:
        """Store key encrypted; "" stores no key at all (not an encrypted empty one), so key_set reads the column."""
        self.encrypted_key = endpoint_keys.encrypt(key) if key else ""

    def api_key(self) -> str:
        """The key in plain text, for the worker's client and nothing else; "" when it has none.
        Raises endpoint_keys.UnreadableKey, naming the endpoint, when the secrets no longer decrypt it."""
        return endpoint_keys.decrypt(self.encrypted_key, self.name) if self.encrypted_key else ""

    def clean(self) -> None:
        # The admin's select lists every organisation's prices; the form's and the API's only its own.
        if self.price_id is not None and self.price.organisation_id != self.organisation_id:
            raise ValidationError({"price": "Choose a price from this endpoint's organisation's price book."})


def _folded(name: str) -> str:
    """name as it reads, as workload names are compared (workloads.rules): width, case and runs of spaces aside."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def endpoint_named_alike(organisation: Organisation, name: str) -> str | None:
    """The name of one of the organisation's endpoints that reads the same as name, or None. The database's
    constraint, on lower(name), settles a race between two requests; this check gives the clear error."""
    target = _folded(name)
    names = Endpoint.objects.filter(organisation=organisation).values_list("name", flat=True)
    return next((other for other in names if _folded(other) == target), None)
