"""People log in with a form and log out with a POST, never a plain link."""

from django.urls import reverse


def test_a_member_logs_in_and_lands_on_the_dashboard(client, alice, password):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert 'name="username"' in page.content.decode() and 'name="password"' in page.content.decode()

    response = client.post(reverse("login"), {"username": "alice", "password": password})
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")
    assert "Acme" in client.get(reverse("dashboard")).content.decode()


def test_a_wrong_password_is_refused(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert "enter a correct username and password" in response.content.decode()


def test_logging_out_takes_a_post(alice_client):
    page = alice_client.get(reverse("dashboard")).content.decode()
    assert f'<form method="post" action="{reverse("logout")}"' in page

    assert alice_client.get(reverse("logout")).status_code == 405
    response = alice_client.post(reverse("logout"))
    assert response.status_code == 302 and response["Location"] == reverse("login")
    assert alice_client.get(reverse("dashboard")).status_code == 302
