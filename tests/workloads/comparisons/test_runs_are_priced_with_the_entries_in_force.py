"""A run is priced with the price book entries in force on its date; unknown devices or models are errors, never $0."""

import datetime as dt

import pytest

from workloads.comparisons import pricing
from workloads.comparisons.results import store_report
from workloads.models import ApiPrice, ComparisonRun, GpuPrice

REPORT = {
    "device": "NVIDIA H200",
    "strategies": {
        "full_index_share": {
            "mode": "index_share", "tokens_in": 2_000_000, "tokens_out": 100_000, "calls": 10, "seconds": 7200.0,
            "wall_seconds": 7300.0, "peak_memory_bytes": 1,
            "flops": {"linear": 1, "attention": 2, "indexer": 3, "total": 6},
            "bytes": {"total": 1}, "quality": {"accuracy": 1.0, "n_probes": 0, "gated": False, "top1_agreement": 0.9,
                                               "index_overlap": 0.5, "by_kind": {}}, "probes": []},
        "full_dense": {"mode": "dense", "refused": "longer than the model"},
    },
}


def _run(workload, on: dt.date):
    run = ComparisonRun.objects.create(workload=workload, strategies=["full_index_share", "full_dense"],
                                       model=workload.target_model, units_of_work=4, status="succeeded")
    ComparisonRun.objects.filter(pk=run.pk).update(created_at=dt.datetime.combine(on, dt.time(12), dt.timezone.utc))
    run.refresh_from_db()
    store_report(run, REPORT)
    run.save()
    return run


def test_it_uses_the_latest_entry_on_or_before_the_runs_date(workload, prices, acme):
    GpuPrice.objects.create(organisation=acme, device_class="H200", per_hour="2.00",
                            effective_from=dt.date(2026, 7, 1), source="renegotiated")
    spring, autumn = _run(workload, dt.date(2026, 4, 1)), _run(workload, dt.date(2026, 10, 1))
    for run in (spring, autumn):
        pricing.price_run(run)
    spring_result, autumn_result = (
        spring.results.get(strategy="full_index_share"), autumn.results.get(strategy="full_index_share")
    )
    assert spring.gpu_price == prices["h200"] and spring_result.device_dollars == pytest.approx(2 * 3.50)
    assert autumn.gpu_price.source == "renegotiated" and autumn_result.device_dollars == pytest.approx(2 * 2.00)
    assert autumn_result.api_dollars == pytest.approx(2 * 0.10 + 0.1 * 0.30)
    assert autumn_result.unit_device_dollars == pytest.approx(4.00 / 4)


def test_the_longest_device_class_named_wins(workload, prices, acme):
    GpuPrice.objects.create(organisation=acme, device_class="NVIDIA H200", per_hour="9.00",
                            effective_from=dt.date(2026, 1, 1), source="x")
    assert pricing.device_class(acme, "NVIDIA H200", dt.date(2026, 5, 1)) == "NVIDIA H200"
    assert pricing.device_class(acme, "cpu (2 threads)", dt.date(2026, 5, 1)) == "cpu"
    with pytest.raises(pricing.PricingError, match="no GPU price covers"):
        pricing.device_class(acme, "NVIDIA H2000", dt.date(2026, 5, 1))


@pytest.mark.parametrize("spellings", [("H200", "h200"), ("h200", "H200")])
def test_a_class_is_one_class_whatever_its_case(workload, acme, spellings):
    # Entries saved under two spellings before they were merged on entry: the newest in force wins, never chance.
    older, newer = spellings
    GpuPrice.objects.create(organisation=acme, device_class=older, per_hour="3.00", effective_from=dt.date(2025, 1, 1),
                            source="old quote")
    GpuPrice.objects.create(organisation=acme, device_class=newer, per_hour="5.00", effective_from=dt.date(2026, 6, 1),
                            source="new quote")
    assert pricing.gpu_price(acme, "NVIDIA H200", dt.date(2026, 12, 3)).source == "new quote"
    assert pricing.gpu_price(acme, "NVIDIA H200", dt.date(2026, 5, 31)).source == "old quote"
    assert pricing.spelled_as_before(acme, "H200") in spellings and pricing.spelled_as_before(acme, "A100") == "A100"


def test_an_unpriced_device_leaves_dollars_empty_and_says_why(workload, prices):
    GpuPrice.objects.filter(device_class="H200").delete()
    run = _run(workload, dt.date(2026, 5, 1))
    pricing.price_run(run)
    result = run.results.get(strategy="full_index_share")
    assert result.device_dollars is None and result.api_dollars is None and result.unit_device_dollars is None
    assert "NVIDIA H200" in run.pricing_error and run.gpu_price is None


def test_a_price_before_its_effective_date_does_not_count(workload, prices):
    run = _run(workload, dt.date(2025, 12, 31))
    pricing.price_run(run)
    assert "no GPU price" in run.pricing_error


def test_repricing_picks_up_a_new_entry_and_clears_the_error(workload, prices, acme):
    ApiPrice.objects.all().delete()
    run = _run(workload, dt.date(2026, 5, 1))
    pricing.price_run(run)
    assert "no API price" in run.pricing_error
    ApiPrice.objects.create(organisation=acme, provider="example-api", model=workload.target_model, input_per_mtok="1",
                            output_per_mtok="2", effective_from=dt.date(2026, 5, 1), source="new contract")
    pricing.price_run(run)
    assert run.pricing_error == "" and run.api_price.source == "new contract"
    assert run.results.get(strategy="full_index_share").api_dollars == pytest.approx(2 * 1 + 0.1 * 2)
    assert run.results.get(strategy="full_dense").device_dollars is None  # refused: nothing ran, nothing billed
