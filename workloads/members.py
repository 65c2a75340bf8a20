"""An organisation's members: adding one with a link to set their password, changing roles, removing one.

An organisation always keeps an admin: nobody, themselves included, may demote or remove its last one,
or nobody would be left to set prices or add people.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from workloads.models import ApiToken, Membership, Organisation, Role


def password_link(user) -> str:
    """The path of Django's set-password page for the user; it works once, until PASSWORD_RESET_TIMEOUT."""
    return reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)})


@transaction.atomic
def add_member(organisation: Organisation, username: str, email: str, role: Role) -> Membership:
    """A new user in the organisation, with no password until they set one through password_link."""
    User = get_user_model()
    if User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": username}).exists():
        # Usernames are global, and a removed member keeps theirs so their past runs still name them.
        raise ValidationError(f"the username {username!r} is taken: choose another")
    user = User(**{User.USERNAME_FIELD: username}, email=email)
    user.set_unusable_password()
    user.full_clean(exclude=["password"])
    user.save()
    return Membership.objects.create(user=user, organisation=organisation, role=role)


def _locked(membership: Membership) -> tuple[Membership, int]:
    """The membership as stored now, and how many admins its organisation has, with every membership of the
    organisation locked in one order: two admins demoting each other at once are taken one after the other,
    and the second is refused."""
    rows = list(Membership.objects.select_for_update().select_related("user", "organisation")
                .filter(organisation=membership.organisation_id).order_by("pk"))
    current = next((m for m in rows if m.pk == membership.pk), None)
    if current is None:
        raise ValidationError(f"{membership.user.get_username()} is no longer a member")
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
    """The user can no longer sign in or use their API tokens; their name stays on what they did."""
    membership, admins = _locked(membership)
    _keep_an_admin(membership, admins)
    user = membership.user
    membership.delete()
    ApiToken.objects.filter(user=user).delete()
    user.is_active = False
    user.save(update_fields=["is_active"])
