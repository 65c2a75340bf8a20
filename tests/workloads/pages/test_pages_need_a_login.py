"""Every page sends an anonymous visitor to the login page first."""

import pytest
from django.urls import reverse


@pytest.mark.parametrize("name, args", [
    ("dashboard", []), ("price_book", []), ("workload_create", []), ("workload_detail", [1]), ("planning", [1]),
    ("runs_csv", [1]), ("run_detail", [1]), ("run_status", [1]), ("upload_detail", [1]), ("probe_create", [1]),
    ("document_detail", [1, 1]), ("document_text", [1, 1]), ("endpoints", []),
])
def test_an_anonymous_visitor_is_sent_to_the_login_page(client, db, name, args):
    url = reverse(name, args=args)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"
