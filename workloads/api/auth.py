"""Per-user API tokens: `Authorization: Bearer cp_...`, looked up by their SHA-256 digest."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone
from ninja.errors import AuthorizationError
from ninja.security import HttpBearer

from workloads.models import ApiToken, Membership


class TokenAuth(HttpBearer):
    """Returns the token's user (request.auth); None (401) for a missing, unknown or inactive user's token.

    A valid token whose user belongs to no organisation is 403: it may see nothing.
    """

    def authenticate(self, request: HttpRequest, token: str):
        if not token:
            return None
        found = (ApiToken.objects.select_related("user__membership__organisation")
                 .filter(digest=ApiToken.hash(token), user__is_active=True).first())
        if found is None:
            return None
        # A plain UPDATE: no read-modify-write race between concurrent requests with one token.
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=timezone.now())
        user = found.user
        try:
            user.membership  # noqa: B018  (deliberate: the access raises DoesNotExist for a user without a membership)
        except Membership.DoesNotExist:
            raise AuthorizationError(message="you are not a member of any organisation") from None
        return user
