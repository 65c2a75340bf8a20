"""Opening the address a button posts to (a bookmarked or shared link) shows a page saying so, not a blank one.
(The API's 405 stays JSON: tests/workloads/api/test_every_error_is_json.py.)"""

from django.test import Client
from django.urls import reverse

from .conftest import html, make_run


def test_a_get_of_a_button_address_explains_itself(alice_client, workload):
    run = make_run(workload)

    response = alice_client.get(reverse("run_cancel", args=[run.pk]))

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert "This address is where a button on a page sends its form (POST only)" in html(response)


def test_a_post_to_a_download_names_the_methods_it_takes(alice_client, workload):
    run = make_run(workload)

    response = alice_client.post(reverse("summary_download", args=[run.pk]))

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert "This address takes GET, HEAD only, not POST." in html(response)


def test_a_page_to_read_takes_no_form_and_answers_head(alice_client, workload, document):
    page = reverse("document_detail", args=[workload.pk, document.pk])

    assert alice_client.post(page, {"text": "changed"}).status_code == 405
    assert alice_client.delete(page).status_code == 405
    head = alice_client.head(page)
    assert head.status_code == 200 and head.content == b""
    document.refresh_from_db()
    assert document.text == "The notice period is 90 days."


def test_with_csrf_checks_on_a_page_to_read_still_says_what_it_takes_and_a_form_still_needs_its_token(
        alice, workload, document):
    # As a browser or a script meets the server: the CSRF check runs before the view.
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)

    read = browser.post(reverse("document_detail", args=[workload.pk, document.pk]), {"text": "changed"})
    form = browser.post(reverse("workload_edit", args=[workload.pk]), {"name": "renamed"})

    assert read.status_code == 405 and "This address takes GET, HEAD only, not POST." in html(read)
    assert form.status_code == 403  # a form without its security token is refused, as before
    document.refresh_from_db()
    workload.refresh_from_db()
    assert (document.text, workload.name) == ("The notice period is 90 days.", "Supplier contracts")


def test_a_page_with_a_form_takes_get_and_post_only(alice_client, workload):
    response = alice_client.put(reverse("workload_edit", args=[workload.pk]), "name=renamed")

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, POST"
    assert "This address takes GET, HEAD, POST only, not PUT." in html(response)
    workload.refresh_from_db()
    assert workload.name != "renamed"
