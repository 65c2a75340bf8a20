"""Full context against chunking per unit of work, in one sentence that says when it cannot or should not be trusted."""

from tests.workloads.pages.conftest import answer, report, strategy
from tests.workloads.summary.conftest import DEVICE, make_run, standard_report
from workloads.models import Workload
from workloads.summary.decision import decision, monthly
from workloads.templatetags.units import dollars

REFUSED = "longer than the model's 8192 positions"


def _ran(probe, mode: str, seconds: float, right: bool, gated: bool = False) -> dict:
    return strategy(mode, seconds=seconds, accuracy=1.0 if right else 0.0, gated=gated,
                    answers=[answer(probe, "90 days" if right else "30 days", right)])


def test_dearer_and_more_accurate_full_context_says_the_ratio_and_the_points(workload, probe, prices):
    run = make_run(workload, standard_report(probe, DEVICE, index_share_seconds=36.0))

    assert decision(run) == (
        "Full context with Index Share costs 2.0× chunking per contract and answers 100 points more of your "
        "questions correctly; chunking is quality-gated (more than 5 points below the best accuracy), so its "
        "savings do not count.")


def test_cheaper_full_context_says_how_much_less_it_costs(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 27.0, True),
                                     "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

    assert decision(run) == ("Full context with Index Share costs 25% less than chunking per contract and answers "
                             "as many of your questions correctly.")


def test_when_neither_answers_anything_it_says_the_costs_buy_nothing(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 11.0, False),
                                     "chunked": _ran(probe, "dense", 36.0, False)}, DEVICE))

    assert decision(run) == (
        "Full context with Index Share costs 69% less than chunking per contract, but neither it nor chunking "
        "answers any of your questions correctly: check the model and the questions before trusting either.")


def test_less_accurate_full_context_says_fewer_and_that_it_is_gated(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 36.0, False, gated=True),
                                     "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

    assert decision(run) == (
        "Full context with Index Share costs about the same as chunking per contract and answers 100 points fewer "
        "of your questions correctly; full context with Index Share is quality-gated (more than 5 points below "
        "the best accuracy), so its savings do not count.")


def test_it_speaks_in_the_workloads_own_unit(acme, probe, prices):
    for kind, unit in ((Workload.Kind.SUPPORT, "ticket"), (Workload.Kind.CODEBASE, "thousand lines"),
                       (Workload.Kind.OTHER, "document")):
        workload = Workload.objects.create(organisation=acme, name=f"A {kind} workload", kind=kind,
                                           target_model=probe.workload.target_model, api_provider="example-api",
                                           api_model=probe.workload.target_model)
        run = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 72.0, True),
                                         "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

        assert decision(run).startswith(f"Full context with Index Share costs 2.0× chunking per {unit} and ")


def test_an_unpriced_run_compares_device_seconds_and_says_so(workload, probe):
    run = make_run(workload, standard_report(probe, "cpu", index_share_seconds=45.0))  # no price book at all

    sentence = decision(run)

    assert sentence.startswith("Full context with Index Share takes 2.5× chunking's device time per contract and "
                               "answers 100 points more of your questions correctly; costs compare measured device "
                               "seconds, as the run has no dollar figures (no GPU price covers the device 'cpu'")
    assert run.pricing_error in sentence


def test_without_index_share_it_takes_the_best_full_context_strategy_and_says_why(workload, probe, prices):
    run = make_run(workload, report({
        "full_index_share": {"mode": "index_share", "refused": REFUSED},
        "full_naive_sparse": _ran(probe, "naive_sparse", 54.0, False, gated=True),
        "full_dense": _ran(probe, "dense", 72.0, True),
        "chunked": _ran(probe, "dense", 36.0, True),
    }, DEVICE))

    assert decision(run) == (
        "Full context with dense attention costs 2.0× chunking per contract and answers as many of your questions "
        f"correctly; Index Share was refused ({REFUSED}).")


def test_a_run_without_index_share_says_it_was_not_measured(workload, probe, prices):
    run = make_run(workload, report({"full_dense": _ran(probe, "dense", 72.0, True),
                                     "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

    assert decision(run).endswith("; Index Share was not measured in this run.")


def test_when_every_full_context_strategy_was_refused_it_says_so_and_gives_chunkings_cost(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": {"mode": "index_share", "refused": REFUSED},
                                     "full_dense": {"mode": "dense", "refused": REFUSED},
                                     "chunked": _ran(probe, "dense", 36.0, True)}, DEVICE))

    assert decision(run) == (f"Full context with Index Share was refused in this run ({REFUSED}), so only chunking "
                             "was measured: chunking costs $0.00875 per contract.")


def test_a_refused_or_missing_chunked_side_is_named(workload, probe, prices):
    refused = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 36.0, True),
                                         "chunked": {"mode": "dense", "refused": "chunks of 16 tokens cannot fit"}},
                                        DEVICE))
    missing = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 36.0, True)}, DEVICE))

    assert decision(refused) == ("Chunking was refused in this run (chunks of 16 tokens cannot fit), so full context "
                                 "cannot be compared with it.")
    assert decision(missing).startswith("This run did not measure chunking")


def test_a_month_at_the_expected_volume_is_priced_for_both(workload, probe, prices):
    run = make_run(workload, standard_report(probe, DEVICE, index_share_seconds=36.0))
    api = {r.strategy: r.unit_api_dollars * 40 for r in run.results.all() if not r.refused}

    # 36 s and 18 s on a $3.50/h H200 for 4 contracts, times the 40 contracts a month the workload expects.
    assert monthly(run) == (
        "At about 40 contracts a month, each asked this run's 1 question, full context with Index Share would cost "
        "$0.35 a month on your device, and "
        f"chunking $0.175; an API would bill {dollars(api['full_index_share'])} and {dollars(api['chunked'])} for "
        "the same tokens.")


def test_no_month_without_an_expected_volume_or_prices(workload, probe, prices):
    run = make_run(workload, standard_report(probe, "NVIDIA L4"))  # the price book has no L4
    assert run.pricing_error and monthly(run) is None
    run = make_run(workload, standard_report(probe, DEVICE))
    assert monthly(run) is not None
    workload.expected_volume = 0
    workload.save()
    assert monthly(run) is None


def test_a_cheaper_full_context_strategy_that_answers_as_well_is_named(workload, probe, prices):
    run = make_run(workload, report({"full_index_share": _ran(probe, "index_share", 40.0, True),
                                     "full_dense": _ran(probe, "dense", 10.0, True),
                                     "full_naive_sparse": _ran(probe, "naive_sparse", 5.0, False, gated=True),
                                     "chunked": _ran(probe, "dense", 20.0, True)}, DEVICE))

    # Naive sparse is faster still, but gated: only dense attention is named.
    assert decision(run) == (
        "Full context with Index Share costs 2.0× chunking per contract and answers as many of your questions "
        "correctly; full context with dense attention answers at least as many correctly in 75% less device time "
        "at these document lengths.")


def test_when_index_share_is_gated_the_full_context_strategy_inside_the_gate_is_named(workload, probe, prices):
    def measured(mode, seconds, accuracy, gated):
        return strategy(mode, seconds=seconds, accuracy=accuracy, gated=gated, answers=[answer(probe, "90 days", True)])

    run = make_run(workload, report({"full_index_share": measured("index_share", 10.0, 0.4, gated=True),
                                     "full_dense": measured("dense", 11.0, 0.6, gated=False),
                                     "chunked": measured("dense", 12.0, 0.5, gated=True)}, DEVICE))

    assert decision(run) == (
        "Full context with Index Share costs 17% less than chunking per contract and answers 10 points fewer of "
        "your questions correctly; both are quality-gated (more than 5 points below the best accuracy); full "
        "context with dense attention is inside the gate: it costs 8% less than chunking per contract and answers "
        "10 points more of your questions correctly.")
