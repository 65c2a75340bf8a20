"""Re-pricing a run adds a labelled pricing beside the original and never changes the original: each keeps the
price entries and API model it used and each strategy's dollars, and the run's page and the API show them all."""

import datetime as dt

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.comparisons import pricing
from workloads.models import GpuPrice, RunPricing


@pytest.fixture
def repriced(acme, workload, probe, prices, alice):
    """A run priced at $0.10 a CPU hour, then re-priced by Alice after a corrected $0.40 entry for its date."""
    run = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 2, 12, tzinfo=dt.UTC))
    corrected = GpuPrice.objects.create(organisation=acme, device_class="cpu", per_hour="0.40",
                                        effective_from=dt.date(2026, 3, 1), source="test: the corrected quote")
    pricing.price_run(run, by=alice)
    run.refresh_from_db()
    return run, corrected


def test_the_original_pricing_is_kept_with_its_entries_and_dollars(repriced, prices, alice):
    run, corrected = repriced
    original, again = run.pricings.all()

    assert (original.kind, original.created_by) == (RunPricing.Kind.ORIGINAL, None)
    assert original.gpu_price == prices["cpu"] and original.api_price == prices["api"]
    assert (original.api_provider, original.api_model) == (prices["api"].provider, prices["api"].model)
    assert original.dollars["full_dense"]["device_dollars"] == pytest.approx(72 / 3600 * 0.10)

    assert (again.kind, again.created_by) == (RunPricing.Kind.REPRICING, alice)
    assert again.gpu_price == corrected
    assert again.dollars["full_dense"]["device_dollars"] == pytest.approx(72 / 3600 * 0.40)
    assert again.label.startswith("Re-priced by alice on ")
    # The run's own figures are the latest pricing's.
    assert run.gpu_price == corrected
    assert run.results.get(strategy="full_dense").device_dollars == pytest.approx(72 / 3600 * 0.40)


def test_a_third_pricing_leaves_both_earlier_ones_as_they_were(repriced, alice):
    run, _ = repriced
    kept = [(p.pk, p.gpu_price_id, p.dollars) for p in run.pricings.all()]

    pricing.price_run(run, by=alice)

    assert [(p.pk, p.gpu_price_id, p.dollars) for p in run.pricings.all()][:2] == kept
    assert run.pricings.count() == 3


def test_the_run_page_shows_the_original_and_the_repricing(repriced, alice_client):
    run, _ = repriced

    page = html(alice_client.get(reverse("run_detail", args=[run.pk])))

    assert "Every pricing of this run" in page
    assert "Priced when it finished on " in page and "Re-priced by alice on " in page
    assert "cpu at $0.10 an hour from 1 Jan 2026" in page and "cpu at $0.40 an hour from 1 Mar 2026" in page
    assert "<th scope=\"row\">Whole documents (dense)</th> <td>device $0.002;" in page and "<td>device $0.008;" in page  # 72 s


def test_the_api_lists_every_pricing(repriced, client, alice):
    from workloads.models import ApiToken

    run, corrected = repriced
    body = client.get(f"/api/runs/{run.pk}", headers={"Authorization": f"Bearer {ApiToken.issue(alice)}"}).json()

    assert [(p["kind"], p["created_by"], p["gpu_price_id"]) for p in body["pricings"]] == [
        ("original", None, body["pricings"][0]["gpu_price_id"]), ("repricing", "alice", corrected.pk)]
    assert body["pricings"][0]["dollars"]["full_dense"]["device_dollars"] == pytest.approx(72 / 3600 * 0.10)
