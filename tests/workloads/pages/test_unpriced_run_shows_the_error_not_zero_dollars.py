"""A run the price book cannot price shows why, never $0, and is priced once an entry covers it."""

from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.models import GpuPrice


def test_unpriced_run_shows_the_error_not_zero_dollars(alice_client, acme, workload, probe, prices):
    run = make_run(workload, standard_report(probe, device="NVIDIA L4"))
    assert run.pricing_error

    page = alice_client.get(reverse("run_detail", args=[run.pk])).content.decode()
    assert "Not priced: no GPU price covers the device &#x27;NVIDIA L4&#x27;" in page
    assert "not priced" in page and "$0<" not in page and "$0.00<" not in page

    workload_page = alice_client.get(reverse("workload_detail", args=[workload.pk])).content.decode()
    assert "None of the finished comparisons has a value to chart here." in workload_page
    assert "is left out because it has no dollar figures: no GPU price covers the device" in workload_page

    GpuPrice.objects.create(organisation=acme, device_class="L4", per_hour="0.80", effective_from="2026-01-01",
                            source="test: an L4 quote")
    response = alice_client.post(reverse("run_reprice", args=[run.pk]), follow=True)
    run.refresh_from_db()
    assert run.pricing_error == "" and run.gpu_price.device_class == "L4"
    page = html(response)
    assert "Priced with the price book entries in force" in page
    assert "$0.008" in page  # full_index_share: 36 s at $0.80 an hour
    assert "L4: $0.80 an hour, in force from 1 Jan 2026; source: test: an L4 quote" in page


def test_repricing_that_still_fails_says_why(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe, device="NVIDIA L4"))
    response = alice_client.post(reverse("run_reprice", args=[run.pk]), follow=True)
    assert "Could not price this comparison: no GPU price covers the device" in response.content.decode()
