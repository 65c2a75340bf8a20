"""A missing price says where to fix it: wherever a page shows the pricing error, its words "the price book" link to
the price book page; the database and the API keep the plain text, which names the endpoint that adds the entry."""

from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.models import ApiPrice, ApiToken, ComparisonRun

LINK = f'<a href="{reverse("price_book")}">the price book</a>'


def test_the_run_page_links_the_missing_api_price_to_the_price_book(alice_client, workload, probe, prices):
    ApiPrice.objects.all().delete()
    run = make_run(workload, standard_report(probe))
    assert run.pricing_error.endswith(": add one to the price book (POST /api/prices/api)")  # plain text

    page = html(alice_client.get(reverse("run_detail", args=[run.pk])))

    assert (f'<p class="warning" role="alert">Not priced: no API price for {workload.api_model} from example-api in '
            f"force on {run.day}: add one to {LINK} (POST /api/prices/api)</p>") in page


def test_a_run_that_failed_for_a_missing_device_price_links_it_too(alice_client, workload, prices):
    # What the worker stores when the device it ran on has no price: pricing.PricingError's text, as is.
    run = make_run(workload, status=ComparisonRun.Status.FAILED,
                   error="no GPU price covers the device '<b>L4</b>' on 2026-05-01: add its class to the price book "
                         "(POST /api/prices/gpu; classes priced: H200, cpu)")

    page = html(alice_client.get(reverse("run_detail", args=[run.pk])))

    assert (f"no GPU price covers the device &#x27;&lt;b&gt;L4&lt;/b&gt;&#x27; on 2026-05-01: add its class to {LINK} "
            "(POST /api/prices/gpu; classes priced: H200, cpu)</p>") in page


def test_the_dashboard_links_it(alice_client, workload, probe, prices):
    ApiPrice.objects.all().delete()
    make_run(workload, standard_report(probe))

    page = html(alice_client.get(reverse("dashboard")))

    assert f'<p class="warning">Not priced: no API price for {workload.api_model} from example-api' in page
    assert f"add one to {LINK} (POST /api/prices/api)</p>" in page


def test_the_planning_notes_link_it(alice_client, workload, probe, prices):
    ApiPrice.objects.all().delete()
    make_run(workload, standard_report(probe))

    page = html(alice_client.get(reverse("planning", args=[workload.pk])))

    assert f"<li>No API dollars: no API price for {workload.api_model} from example-api in force on " in page
    assert f"add one to {LINK} (POST /api/prices/api).</li>" in page


def test_the_api_gives_the_plain_text_that_names_the_endpoint(client, alice, workload, probe, prices):
    ApiPrice.objects.all().delete()
    run = make_run(workload, standard_report(probe))

    body = client.get(f"/api/runs/{run.pk}", headers={"Authorization": f"Bearer {ApiToken.issue(alice)}"}).json()

    assert body["pricing_error"] == run.pricing_error and "<a" not in body["pricing_error"]
    assert body["pricing_error"].endswith("add one to the price book (POST /api/prices/api)")
