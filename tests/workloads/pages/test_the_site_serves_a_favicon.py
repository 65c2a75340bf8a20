"""/favicon.ico, which browsers ask for whatever a page links, leads to the site's icon; every page links it."""

from django.urls import reverse


def test_favicon_ico_leads_to_the_icon_without_a_login(client):
    response = client.get("/favicon.ico", follow=True)

    assert response.status_code == 200 and response.redirect_chain == [("/static/favicon.svg", 302)]
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in b"".join(response.streaming_content)


def test_pages_link_the_icon(client):
    page = client.get(reverse("login")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
