"""`manage.py createapitoken --user NAME --org ORG` prints a token that authenticates that user."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from workloads.models import ApiToken, Organisation
from workloads.organisations import members

from .conftest import Api


def _token(**options) -> str:
    out = io.StringIO()
    call_command("createapitoken", stdout=out, **options)
    return out.getvalue().strip()


def test_it_creates_the_organisation_and_the_user(db):
    token = _token(user="erin", org="Initech")

    user = User.objects.get(username="erin")
    assert user.membership.organisation.name == "Initech"
    assert not user.has_usable_password()
    assert ApiToken.objects.get(user=user).digest == ApiToken.hash(token)


def test_it_prints_only_a_token_that_authenticates(client, db):
    token = _token(user="erin", org="Initech")

    assert token.startswith("cp_") and len(token.split()) == 1
    response = Api(client, token).post("/workloads", {"name": "W", "target_model": "SmolLM2-135M-Instruct"})
    assert response.status_code == 201


def test_it_adds_a_token_for_an_existing_member_of_the_organisation(alice, acme):
    first, second = _token(user="alice", org="Acme"), _token(user="alice", org="Acme")

    assert first != second
    assert ApiToken.objects.filter(user=alice).count() == 2
    assert Organisation.objects.count() == 1
    assert alice.has_usable_password()


def test_it_puts_an_existing_user_without_organisation_into_it(db):
    dave = User.objects.create_user("dave")

    _token(user="dave", org="Acme")

    dave.refresh_from_db()
    assert dave.membership.organisation.name == "Acme"


def test_it_refuses_a_user_who_belongs_to_another_organisation(alice):
    with pytest.raises(CommandError, match="user 'alice' already belongs to the organisation 'Acme', not 'Globex'"):
        _token(user="alice", org="Globex")

    assert not ApiToken.objects.exists()
    assert not Organisation.objects.filter(name="Globex").exists()


@pytest.mark.parametrize(("user", "org"), [("", "Acme"), ("erin", "  "), ("bad name!", "Acme")])
def test_it_refuses_empty_or_invalid_names(db, user, org):
    with pytest.raises(CommandError):
        _token(user=user, org=org)

    assert not User.objects.exists() and not Organisation.objects.exists()


def test_an_organisations_first_member_is_its_admin_and_later_ones_are_members(db):
    _token(user="erin", org="Initech")
    _token(user="frank", org="Initech")
    _token(user="grace", org="Initech", role="viewer")
    _token(user="erin", org="Initech", role="admin")  # the role it has: a token, nothing else
    with pytest.raises(CommandError, match="user 'erin' is an admin in 'Initech': an admin changes roles"):
        _token(user="erin", org="Initech", role="viewer")

    roles = dict(User.objects.values_list("username", "membership__role"))
    assert roles == {"erin": "admin", "frank": "member", "grace": "viewer"}


def test_it_refuses_an_unknown_role(db):
    with pytest.raises(CommandError, match="invalid choice: 'owner'"):
        call_command("createapitoken", "--user", "erin", "--org", "Initech", "--role", "owner", stdout=io.StringIO())
    assert not User.objects.exists()


def test_it_refuses_a_removed_user(alice, bob):
    members.remove_member(bob.membership)
    with pytest.raises(CommandError, match="user 'bob' was removed from its organisation and is deactivated"):
        _token(user="bob", org="Acme")
    assert not ApiToken.objects.filter(user=bob).exists()
