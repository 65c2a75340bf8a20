"""Every endpoint needs a bearer token whose user belongs to an organisation."""

import pytest
from django.contrib.auth.models import User

from workloads.models import ApiToken

from .conftest import Api

ENDPOINTS = ["/workloads", "/prices/gpu", "/prices/api", "/runs/1", "/uploads/1", "/workloads/1/runs.csv"]


@pytest.mark.parametrize("path", ENDPOINTS)
def test_it_answers_401_without_a_token(client, db, path):
    response = Api(client, None).get(path)

    assert response.status_code == 401
    assert response.json() == {"detail": "Unauthorized"}


@pytest.mark.parametrize("token", ["cp_not-a-real-token", "", "x" * 10_000, "' OR 1=1 --", "<script>"])
def test_it_answers_401_with_a_wrong_token(client, alice, token):
    ApiToken.issue(alice)

    response = Api(client, token).get("/workloads")

    assert response.status_code == 401


def test_it_answers_401_for_another_scheme_than_bearer(client, alice):
    token = ApiToken.issue(alice)

    response = client.get("/api/workloads", headers={"Authorization": f"Basic {token}"})

    assert response.status_code == 401


def test_it_answers_401_for_the_token_of_a_deactivated_user(client, alice):
    token = ApiToken.issue(alice)
    User.objects.filter(pk=alice.pk).update(is_active=False)

    assert Api(client, token).get("/workloads").status_code == 401


def test_it_answers_403_for_a_user_without_an_organisation(client, db):
    loner = User.objects.create_user("dave")

    response = Api(client, ApiToken.issue(loner)).get("/workloads")

    assert response.status_code == 403
    assert response.json() == {"detail": "you are not a member of any organisation"}


def test_it_records_when_a_token_was_last_used(as_alice):
    token = ApiToken.objects.get(digest=ApiToken.hash(as_alice.token))
    assert token.last_used_at is None

    assert as_alice.get("/workloads").status_code == 200

    token.refresh_from_db()
    assert token.last_used_at is not None


def test_it_stores_only_a_digest_of_the_token(as_alice):
    assert not ApiToken.objects.filter(digest=as_alice.token).exists()
    assert ApiToken.objects.filter(digest=ApiToken.hash(as_alice.token)).exists()
