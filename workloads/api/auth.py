"""Per-user API tokens: `Authorization: Bearer cp_...`, looked up by their SHA-256 digest."""

from __future__ import annotations

import datetime as dt

from django.http import HttpRequest
from django.utils import timezone
from ninja.errors import AuthorizationError, HttpError
from ninja.security import HttpBearer

from workloads import sign_in_throttle
from workloads.models import ApiToken, Membership

# How precisely a token's last_used_at says when it was last used.
LAST_USED_EVERY = dt.timedelta(minutes=1)


class TokenAuth(HttpBearer):
    """Returns the token's user (request.auth); None (401) for a missing, unknown or inactive user's token.

    A valid token whose user belongs to no organisation is 403: it may see nothing. Unknown tokens count as failed
    sign-ins from their address: past TOKEN_FAILURE_LIMIT, the address gets 429 with any token (its login form is
    not affected), until the failures are old enough (workloads.sign_in_throttle).
    """

    def authenticate(self, request: HttpRequest, token: str):
        if sign_in_throttle.token_refused(request):
            raise HttpError(429, sign_in_throttle.lockout_message(sign_in_throttle.TOKEN_CREDENTIALS))
        if not token:
            return None
        found = (ApiToken.objects.select_related("user__membership__organisation")
                 .filter(digest=ApiToken.hash(token), user__is_active=True).first())
        if found is None:
            sign_in_throttle.token_failed(request)
            return None
        # A plain UPDATE: no read-modify-write race between concurrent requests with one token. At most one a
        # minute per token: a write and its commit on every read was the costliest query of an API read.
        now = timezone.now()
        if found.last_used_at is None or now - found.last_used_at >= LAST_USED_EVERY:
            ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)
        user = found.user
        try:
            user.membership  # noqa: B018  (deliberate: the access raises DoesNotExist for a user without a membership)
        except Membership.DoesNotExist:
            raise AuthorizationError(message="you are not a member of any organisation") from None
        return user
