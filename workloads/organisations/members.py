"""An organisation's members: adding one with a link to set their password, changing roles, removing one.

An organisation always keeps an admin: nobody, themselves included, may demote or remove its last one,
or nobody would be left to set prices or add people. And an organisation's admins never manage the
server's own staff (Django's is_staff and is_superuser users): a new password for one of them would be
the whole server, every organisation's data included.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from workloads.models import ApiToken, Membership, Organisation, Role


def password_link(user) -> str:
    """The user's link to Django's set-password page, at the site's own address (SITE_URL, as in mails, not
    the request's Host header); it works once, until PASSWORD_RESET_TIMEOUT, and never once they have a
    password: the token hashes the password."""
    if user.has_usable_password():
        raise ValidationError(f"{user.get_username()} has set a password already")
    path = reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)})
    return settings.SITE_URL + path


def _taken(username: str) -> ValidationError:
    # Usernames are global, and a removed member keeps theirs so their past runs still name them.
    return ValidationError(f"the username {username!r} is taken: choose another")


def add_member(organisation: Organisation, username: str, email: str, role: Role) -> Membership:
    """A new user in the organisation, with no password until they set one through password_link."""
    User = get_user_model()
    username = User.normalize_username(username)  # NFKC, as saving would: "ＡＤＭＩＮ" is "ADMIN"
    if User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": username}).exists():
        raise _taken(username)
    user = User(**{User.USERNAME_FIELD: username}, email=email)
    user.set_unusable_password()
    user.full_clean(exclude=["password"])
    try:
        with transaction.atomic():
            user.save()
            return Membership.objects.create(user=user, organisation=organisation, role=role)
    except IntegrityError:  # added by a concurrent request since the check (the index ignores case too)
        raise _taken(username) from None


def manageable(membership: Membership) -> None:
    """Raise ValidationError for a member whom the organisation's admins may not manage: the server's staff."""
    user = membership.user
    if user.is_staff or user.is_superuser:
        raise ValidationError(f"{user.get_username()} administers this server: only the server's own admin "
                              "pages change them")


def _locked(membership: Membership) -> tuple[Membership, int]:
    """The membership as stored now, and how many admins its organisation has, with every membership of the
    organisation locked in one order: two admins demoting each other at once are taken one after the other,
    and the second is refused."""
    rows = list(Membership.objects.select_for_update().select_related("user", "organisation")
                .filter(organisation=membership.organisation_id).order_by("pk"))
    current = next((m for m in rows if m.pk == membership.pk), None)
    if current is None:
        raise ValidationError(f"{membership.user.get_username()} is no longer a member")
    manageable(current)
    return current, sum(m.role == Role.ADMIN for m in rows)


def _keep_an_admin(membership: Membership, admins: int) -> None:
    if membership.role == Role.ADMIN and admins == 1:
        raise ValidationError(f"{membership.user.get_username()} is {membership.organisation.name}'s only admin: "
                              "make someone else an admin first")


@transaction.atomic
def change_role(membership: Membership, role: Role) -> None:
    membership, admins = _locked(membership)
    if role != Role.ADMIN:
        _keep_an_admin(membership, admins)
    membership.role = role
    membership.save(update_fields=["role"])


@transaction.atomic
def remove_member(membership: Membership) -> None:
    """The user can no longer sign in, use their API tokens or a set-password link; their name stays on
    what they did."""
    membership, admins = _locked(membership)
    _keep_an_admin(membership, admins)
    user = membership.user
    membership.delete()
    ApiToken.objects.filter(user=user).delete()
    user.is_active = False
    user.set_unusable_password()  # a new hash: any set-password link sent earlier stops working
    user.save(update_fields=["is_active", "password"])
