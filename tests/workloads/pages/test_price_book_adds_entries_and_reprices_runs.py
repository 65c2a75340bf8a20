"""The price book lists the organisation's entries, adds new ones and re-prices every finished run with them."""

from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.models import ApiPrice, GpuPrice


def test_price_book_adds_entries_and_reprices_runs(alice_client, acme, workload, probe, prices):
    priced = make_run(workload, standard_report(probe, device="cpu"))
    unpriced = make_run(workload, standard_report(probe, device="NVIDIA L4"))
    page = html(alice_client.get(reverse("price_book")))
    assert "H200" in page and "$3.50" in page and "test: a GPU cloud list price" in page
    assert "example-api" in page and "$0.30" in page and "1 Jan 2026" in page

    response = alice_client.post(reverse("gpu_price_create"), {"device_class": "L4", "per_hour": "0.8",
                                                               "effective_from": "2026-06-01", "source": "a quote"})
    assert response.status_code == 302 and response["Location"] == reverse("price_book")
    entry = GpuPrice.objects.get(device_class="L4")
    assert (entry.organisation, str(entry.per_hour), str(entry.effective_from)) == (acme, "0.8000", "2026-06-01")
    response = alice_client.post(reverse("api_price_create"), {
        "provider": "other-api", "model": "big-model", "input_per_mtok": "2.5", "output_per_mtok": "10",
        "effective_from": "2026-06-01", "source": "their pricing page"})
    assert response.status_code == 302
    assert ApiPrice.objects.get(provider="other-api").organisation == acme

    response = alice_client.post(reverse("reprice_all"), follow=True)
    page = html(response)
    assert "Priced 2 runs; 0 could not be priced." in page
    unpriced.refresh_from_db()
    assert unpriced.gpu_price == entry and unpriced.pricing_error == ""

    GpuPrice.objects.filter(device_class="cpu").update(device_class="tpu")  # nothing prices the CPU any more
    page = html(alice_client.post(reverse("reprice_all"), follow=True))
    assert "Priced 1 run; 1 could not be priced." in page
    assert f"Run {priced.pk} of Supplier contracts: no GPU price covers the device &#x27;cpu&#x27;" in page
    priced.refresh_from_db()
    assert priced.pricing_error and all(r.device_dollars is None for r in priced.results.all())


def test_a_class_typed_in_another_case_keeps_the_books_spelling(alice_client, prices):
    response = alice_client.post(reverse("gpu_price_create"), {"device_class": "h200", "per_hour": "4",
                                                               "effective_from": "2026-09-01", "source": "a quote"})
    assert response.status_code == 302
    assert list(GpuPrice.objects.filter(device_class__iexact="h200").values_list("device_class", flat=True)) == [
        "H200", "H200"]


def test_it_rejects_bad_entries_with_nothing_saved(alice_client, prices):
    bad = [
        ({"device_class": "A100", "per_hour": "-1", "effective_from": "2026-01-01", "source": "x"},
         "Ensure this value is greater than or equal to 0."),
        ({"device_class": "A100", "per_hour": "abc", "effective_from": "2026-01-01", "source": "x"}, "Enter a number."),
        ({"device_class": "A100", "per_hour": "1", "effective_from": "2026-13-40", "source": "x"},
         "Enter a valid date."),
        ({"device_class": "A100", "per_hour": "1", "effective_from": "2026-01-01", "source": " "},
         "This field is required."),
        ({"device_class": "H200", "per_hour": "4", "effective_from": "2026-01-01", "source": "x"},
         "already has an entry for this on that date"),
        ({"device_class": "h200", "per_hour": "4", "effective_from": "2026-01-01", "source": "x"},
         "already has an entry for this on that date"),  # a device class is one class whatever its case
        ({"device_class": "A100", "per_hour": "123456789", "effective_from": "2026-01-01", "source": "x"},
         "Ensure that there are no more than 6 digits before the decimal point."),
    ]
    for data, message in bad:
        response = alice_client.post(reverse("gpu_price_create"), data)
        assert response.status_code == 400, data
        assert message in response.content.decode(), data
    response = alice_client.post(reverse("api_price_create"), {
        "provider": "example-api", "model": "m", "input_per_mtok": "-0.1", "output_per_mtok": "1",
        "effective_from": "2026-01-01", "source": "x"})
    assert response.status_code == 400 and "greater than or equal to 0" in response.content.decode()
    assert GpuPrice.objects.count() == 2 and ApiPrice.objects.count() == 1


def test_an_entry_that_prices_a_run_cannot_be_deleted(alice_client, workload, probe, prices):
    make_run(workload, standard_report(probe, device="cpu"))
    page = html(alice_client.get(reverse("price_book")))
    assert "prices comparisons" in page

    # Dollars as the price book shows them: "$0.10", not the column's "$0.1000".
    response = alice_client.post(reverse("gpu_price_delete", args=[prices["cpu"].pk]), follow=True)
    assert "cpu at $0.10 an hour from 1 Jan 2026 prices at least one comparison, so it stays" in html(response)
    assert GpuPrice.objects.filter(pk=prices["cpu"].pk).exists()
    response = alice_client.post(reverse("api_price_delete", args=[prices["api"].pk]), follow=True)
    assert ("example-api SmolLM2-135M-Instruct at $0.10 in and $0.30 out per million tokens from 1 Jan 2026 prices "
            "at least one comparison") in html(response)

    response = alice_client.post(reverse("gpu_price_delete", args=[prices["h200"].pk]), follow=True)
    assert "Deleted H200 at $3.50 an hour from 1 Jan 2026." in html(response)
    assert not GpuPrice.objects.filter(pk=prices["h200"].pk).exists()
    assert alice_client.get(reverse("gpu_price_delete", args=[prices["cpu"].pk])).status_code == 405
