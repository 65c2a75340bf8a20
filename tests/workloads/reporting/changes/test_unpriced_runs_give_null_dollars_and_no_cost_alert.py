"""A run the price book cannot price has null dollar changes and raises no cost alert, but accuracy still counts."""

from workloads.models import Alert

from .conftest import Q3, Q4, run_at


def test_an_unpriced_run_has_null_dollar_deltas_and_no_cost_alert(workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 36, "accuracy": 1.0})
    # No price book entry names an A10, so the run is not priced: its cost is unknown, never $0.
    now = run_at(workload, probe, Q4, device="NVIDIA A10", chunked={"seconds": 3600, "accuracy": 0.5})
    now.refresh_from_db()

    assert now.pricing_error
    change = now.changes["strategies"]["chunked"]
    assert change["cost"] == {"previous": 0.001, "current": None, "delta": None, "percent": None,
                            "beyond_spread": None}
    assert change["unit_cost"] == {"previous": 0.00025, "current": None, "delta": None, "percent": None,
                            "beyond_spread": None}
    assert change["accuracy"]["delta_points"] == -50.0
    assert [a.kind for a in now.alerts.all()] == [Alert.Kind.ACCURACY_DOWN]


def test_an_unpriced_previous_run_gives_null_deltas_too(workload, probe, prices):
    run_at(workload, probe, Q3, device="NVIDIA A10", chunked={"seconds": 36})
    now = run_at(workload, probe, Q4, chunked={"seconds": 3600})
    now.refresh_from_db()

    assert now.changes["strategies"]["chunked"]["cost"] == {"previous": None, "current": 0.1, "delta": None,
                                                             "percent": None,
                            "beyond_spread": None}
    assert now.alerts.count() == 0
