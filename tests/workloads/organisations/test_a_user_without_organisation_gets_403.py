"""A logged-in user who belongs to no organisation may see nothing at all."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse


@pytest.mark.parametrize("name, args", [("dashboard", []), ("price_book", []), ("endpoints", []),
                                        ("workload_create", []), ("workload_detail", [1]), ("run_detail", [1])])
def test_a_user_without_organisation_gets_403(client, db, name, args):
    client.force_login(User.objects.create_user("drifter", password="x"))
    response = client.get(reverse(name, args=args))
    assert response.status_code == 403
    assert "not a member of any organisation" in response.content.decode()
