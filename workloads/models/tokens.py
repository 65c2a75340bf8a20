import hashlib
import secrets

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """A per-user API token. Only its SHA-256 is stored; the token is shown once, when made."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    @staticmethod
    def hash(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def issue(cls, user) -> str:
        token = "cp_" + secrets.token_urlsafe(32)
        cls.objects.create(user=user, digest=cls.hash(token))
        return token
