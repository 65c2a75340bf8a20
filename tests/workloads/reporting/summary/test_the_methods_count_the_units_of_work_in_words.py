"""The PDF's methods say what a unit cost is divided by in words: "1 contract", never "1 units of work"."""

import pytest

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import Workload
from workloads.reporting.summary.content import gather


@pytest.mark.parametrize(("kind", "units", "words"), [
    (Workload.Kind.CONTRACTS, 1, "1 contract"), (Workload.Kind.CONTRACTS, 4, "4 contracts"),
    (Workload.Kind.CODEBASE, 2.5, "2.5 thousand lines"),
])
def test_the_cost_method_counts_the_units_of_work_in_words(workload, probe, prices, kind, units, words):
    Workload.objects.filter(pk=workload.pk).update(kind=kind)
    workload.refresh_from_db()
    run = make_run(workload, standard_report(probe), units_of_work=units)

    cost = next(method.text for method in gather(run).methods if method.heading == "Cost")

    assert cost.endswith(f"Unit cost = dollars ÷ the run's units of work: {words}.")
