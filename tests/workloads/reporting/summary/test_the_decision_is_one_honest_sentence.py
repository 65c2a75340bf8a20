"""The run's one recommendation (engine.core.decision on the stored rows): per unit of work, in dollars when priced,
with the gate, the noise and both views as labelled reasons."""

from tests.workloads.pages.conftest import answer, report, strategy
from tests.workloads.reporting.summary.conftest import DEVICE, make_run, standard_report
from workloads.models import Workload
from workloads.reporting.recommendation import decision, monthly, recommendation

REFUSED = "longer than the model's 8192 positions"


def _ran(probe, mode: str, seconds: float, right: bool, gated: bool = False, **quality) -> dict:
    entry = strategy(mode, seconds=seconds, accuracy=1.0 if right else 0.0, gated=gated,
                     answers=[answer(probe, "90 days" if right else "30 days", right)])
    entry["quality"] |= quality
    return entry


def test_it_recommends_the_cheaper_strategy_inside_the_gate_and_sets_it_against_chunking(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 27.0, True),
                                     "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

    # 27 s and 36 s on a $3.50/h H200, over the run's 4 contracts; one probe each, right: 1 of 1 (Wilson 21-100%).
    assert decision(run) == ("Recommended: Whole documents (Index Share), $0.00656 per contract, answers 1 of 1 "
                             "questions (21–100%). Ask every chunk costs $0.00875 and answers 1 of 1 questions (21–100%).")


def test_a_gated_strategy_is_not_recommended_even_when_cheaper(workload, probe, prices):
    run = make_run(workload, standard_report(probe, DEVICE, index_share_seconds=36.0))  # chunked: 18 s, gated

    chosen = recommendation(run)

    assert chosen.recommended == "full_index_share"
    assert any(r.startswith("Ask every chunk left out: clearly fewer right answers than whole documents (Index Share)")
               for r in chosen.reasons)


def test_runs_from_before_the_three_way_gate_fall_back_to_their_gated_flag(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 10.0, False, gated=True),
                                     "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))
    assert run.results.get(strategy="full_index_share").gate == ""

    assert recommendation(run).recommended == "chunked"


def test_costs_inside_their_measured_spread_are_a_tie_won_by_the_more_accurate(workload, probe, prices):
    spread = {"rate": {"median": 1.0, "min": 0.7, "max": 1.6}}
    index_share = _ran(probe, "index_share", 40.0, True) | spread
    chunked = _ran(probe, "dense", 36.0, False, gate="cannot_tell") | spread
    run = make_run(workload, report({"full_index_share": index_share, "chunked": chunked}, DEVICE))

    chosen = recommendation(run)

    assert chosen.recommended == "full_index_share"
    assert "Ask every chunk costs $0.00875 ($0.00613–$0.014), the same within measurement, and answers" in chosen.sentence


def test_it_speaks_in_the_workloads_own_unit(acme, probe, prices):
    for kind, unit in ((Workload.Kind.SUPPORT, "ticket"), (Workload.Kind.CODEBASE, "thousand lines"),
                       (Workload.Kind.OTHER, "document")):
        workload = Workload.objects.create(organisation=acme, name=f"A {kind} workload", kind=kind,
                                           target_model=probe.workload.target_model, api_provider="example-api",
                                           api_model=probe.workload.target_model)
        run = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 72.0, True),
                                         "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

        assert decision(run).startswith(f"Recommended: Ask every chunk, $0.00875 per {unit}, ")


def test_an_unpriced_run_compares_device_seconds_and_says_so_in_its_reasons(workload, probe):
    run = make_run(workload, standard_report(probe, "cpu", index_share_seconds=45.0))  # no price book at all

    chosen = recommendation(run)

    assert chosen.sentence.startswith("Recommended: Whole documents (Index Share), 11.2 s per contract, ")
    device_view = next(r for r in chosen.reasons if r.startswith("Device view: "))
    assert "as the run has no dollar figures" in device_view and run.pricing_error in device_view


def test_refused_strategies_are_named_among_the_reasons(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": {"mode": "index_share", "refused": REFUSED},
                                     "full_dense": _ran(probe, "dense", 72.0, True),
                                     "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

    assert f"Refused: whole documents (Index Share) ({REFUSED})." in recommendation(run).reasons


def test_a_run_of_one_measured_strategy_recommends_nothing(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": {"mode": "index_share", "refused": REFUSED},
                                     "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

    chosen = recommendation(run)

    assert chosen.recommended is None
    assert chosen.sentence.startswith("Only ask every chunk ran: $0.00875 per contract, answers 1 of 1 questions (21–100%).")


def test_the_api_view_is_a_labelled_reason(workload, probe, prices):
    run = make_run(workload, standard_report(probe, DEVICE))

    api = [r for r in recommendation(run).reasons if r.startswith("API view (")]

    assert len(api) == 1 and "per contract" in api[0]


def test_a_month_at_the_expected_volume_is_priced_for_the_recommendation_and_its_counterpart(workload, probe, prices):
    run = make_run(workload, standard_report(probe, DEVICE, index_share_seconds=36.0))

    # 36 s and 18 s on a $3.50/h H200 for 4 contracts, times the 40 contracts a month the workload expects.
    assert monthly(run).startswith("At about 40 contracts a month, on your device: whole documents (Index Share) "
                                   "$0.35 and ask every chunk $0.175 a month; through the API: ")


def test_no_month_without_an_expected_volume_or_prices(workload, probe, prices):
    run = make_run(workload, standard_report(probe, "NVIDIA L4"))  # the price book has no L4
    assert run.pricing_error and monthly(run) is None
    run = make_run(workload, standard_report(probe, DEVICE))
    assert monthly(run) is not None
    workload.expected_volume = 0
    workload.save()
    assert monthly(run) is None
