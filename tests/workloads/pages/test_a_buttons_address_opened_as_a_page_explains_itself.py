"""Opening the address a button posts to (a bookmarked or shared link) shows a page saying so, not a blank one.
(The API's 405 stays JSON: tests/workloads/api/test_every_error_is_json.py.)"""

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
    assert response["Allow"] == "GET"
    assert "This address takes GET only, not POST." in html(response)
