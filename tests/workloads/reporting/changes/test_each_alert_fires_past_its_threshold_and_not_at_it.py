"""Alerts fire when a change goes past the workload's threshold, never at it, with one plain sentence each."""

import pytest

from workloads.models import Alert
from workloads.reporting import rerun_spread

from .conftest import Q3, Q4, run_at


def _alerts(run) -> list[tuple[str, str]]:
    return [(a.kind, a.strategy) for a in run.alerts.all()]


@pytest.mark.parametrize(("seconds", "fires"), [(45.0, False), (45.036, True)])
def test_cost_up_fires_past_the_cost_threshold(workload, probe, prices, seconds, fires):
    workload.alert_cost_percent = 25
    workload.save()
    before = run_at(workload, probe, Q3, chunked={"seconds": 36})
    now = run_at(workload, probe, Q4, chunked={"seconds": seconds})  # +25% exactly, then +25.1%

    assert _alerts(now) == ([(Alert.Kind.COST_UP, "chunked")] if fires else [])
    if fires:
        alert = now.alerts.get()
        assert alert.previous_run == before
        assert alert.message == ("Ask every chunk costs 25.1% more than in 2026-Q3: $0.001 → $0.00125 for the workload, "
                                 "$0.00025 → $0.000313 per contract, beyond the machine's own noise (reruns of the "
                                 f"same work were up to {rerun_spread.MEASURED_PERCENT:g}% apart in our measurements).")


@pytest.mark.parametrize(("accuracy", "fires"), [(0.85, False), (0.84, True)])
def test_accuracy_down_fires_past_the_points_threshold(workload, probe, prices, accuracy, fires):
    run_at(workload, probe, Q3, full_index_share={"seconds": 36, "accuracy": 0.9})
    now = run_at(workload, probe, Q4, full_index_share={"seconds": 36, "accuracy": accuracy})  # -5, then -6 points

    assert _alerts(now) == ([(Alert.Kind.ACCURACY_DOWN, "full_index_share")] if fires else [])
    if fires:
        assert now.alerts.get().message == ("Whole documents (Index Share)'s accuracy fell 6 points since 2026-Q3: "
                                            "90% → 84% of probes answered correctly.")


def test_a_workloads_own_thresholds_are_used(workload, probe, prices):
    workload.alert_cost_percent, workload.alert_accuracy_points = 60, 20
    workload.save()
    run_at(workload, probe, Q3, chunked={"seconds": 36, "accuracy": 0.9})
    now = run_at(workload, probe, Q4, chunked={"seconds": 54, "accuracy": 0.75})  # +50%, -15 points

    assert _alerts(now) == []


def test_cost_falling_and_accuracy_rising_raise_nothing(workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 36, "accuracy": 0.5})
    now = run_at(workload, probe, Q4, chunked={"seconds": 18, "accuracy": 1.0})

    assert _alerts(now) == []


@pytest.mark.parametrize(("before", "after", "expected"), [
    (False, True, [(Alert.Kind.NOW_GATED, "chunked")]),
    (True, False, [(Alert.Kind.NO_LONGER_GATED, "chunked")]),
    (True, True, []),
    (False, False, []),
])
def test_gate_alerts_fire_when_the_gate_changes(workload, probe, prices, before, after, expected):
    run_at(workload, probe, Q3, chunked={"seconds": 36, "accuracy": 0.8, "gated": before})
    now = run_at(workload, probe, Q4, chunked={"seconds": 36, "accuracy": 0.8, "gated": after})

    assert _alerts(now) == expected


def test_gate_alert_messages_name_the_figures_and_periods(workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 36, "accuracy": 0.9}, full_dense={"seconds": 72, "gated": True,
                                                                                       "accuracy": 0.7})
    now = run_at(workload, probe, Q4, chunked={"seconds": 36, "accuracy": 0.88, "gated": True},
                 full_dense={"seconds": 72, "accuracy": 0.95})

    assert {a.kind: a.message for a in now.alerts.all()} == {
        Alert.Kind.NOW_GATED: "Ask every chunk fell out of the quality gate in 2026-Q4: it answered 88% of probes correctly, "
                              "more than 5 points below the best, after 90% in 2026-Q3.",
        Alert.Kind.NO_LONGER_GATED: "Whole documents (dense) is back inside the quality gate in 2026-Q4: "
                                    "it answered 95% of probes correctly, after 70% in 2026-Q3.",
    }


def test_one_strategy_can_raise_several_alerts(workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 36, "accuracy": 1.0})
    now = run_at(workload, probe, Q4, chunked={"seconds": 72, "accuracy": 0.5, "gated": True})

    assert _alerts(now) == [(Alert.Kind.COST_UP, "chunked"), (Alert.Kind.ACCURACY_DOWN, "chunked"),
                            (Alert.Kind.NOW_GATED, "chunked")]
