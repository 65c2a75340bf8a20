"""`manage.py createapitoken --user NAME --org ORG [--role ROLE]`: a new API token for the user, printed once.

Creates the organisation, the user (with an unusable password: the token is how it signs in)
and the membership when missing. A new membership gets --role; without it, the first member of an
organisation is its admin and later ones are members. An existing member keeps their role (a
different --role is refused: roles change on the Organisation page, where an organisation always keeps
an admin), and a removed (deactivated) user is refused. A user who already belongs to another
organisation is refused: a user has one organisation, and a token must not move them.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from workloads.models import ApiToken, Membership, Organisation, Role


class Command(BaseCommand):
    help = "Create an API token for a user in an organisation (both made if missing); prints only the token."

    def add_arguments(self, parser):
        parser.add_argument("--user", required=True, help="username; created with an unusable password if missing")
        parser.add_argument("--org", required=True, help="organisation name; created if missing")
        parser.add_argument("--role", choices=Role.values,
                            help="for a new member (default: admin for an organisation's first member, else member)")

    def handle(self, *args, user: str, org: str, role: str | None, **options):
        username, org_name = user.strip(), org.strip()
        if not username or not org_name:
            raise CommandError("--user and --org must not be empty")
        User = get_user_model()
        with transaction.atomic():
            account = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
            membership = (Membership.objects.filter(user=account).select_related("organisation").first()
                          if account else None)
            if account is not None and not account.is_active:
                raise CommandError(f"user {username!r} was removed from its organisation and is deactivated; "
                                   "choose another username")
            if membership and membership.organisation.name != org_name:
                raise CommandError(f"user {username!r} already belongs to the organisation "
                                   f"{membership.organisation.name!r}, not {org_name!r}; a user has one organisation")
            if membership and role and membership.role != role:
                raise CommandError(f"user {username!r} is {Role(membership.role).one} in {org_name!r}: an admin "
                                   "changes roles on the Organisation page")
            organisation, _ = Organisation.objects.get_or_create(name=org_name)
            if account is None:
                account = User(**{User.USERNAME_FIELD: username})
                account.set_unusable_password()
                try:
                    account.full_clean(exclude=["password"])
                except ValidationError as exc:
                    raise CommandError(f"cannot create user {username!r}: {'; '.join(exc.messages)}") from None
                account.save()
            if membership is None:
                first = not organisation.memberships.exists()
                Membership.objects.create(user=account, organisation=organisation,
                                          role=role or (Role.ADMIN if first else Role.MEMBER))
            token = ApiToken.issue(account)
        self.stdout.write(token)
