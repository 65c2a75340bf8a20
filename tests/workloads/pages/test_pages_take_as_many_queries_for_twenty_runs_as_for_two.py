"""Every page that reads a workload's runs takes as many queries with 20 runs in the workload as with 2: no page
queries once per run (or per result, or per answer)."""

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report
from tests.workloads.pages.query_counts import grown, queries

PAGES = [("dashboard", ()), ("workload_detail", ("workload",)), ("run_detail", ("run",)), ("planning", ("workload",)),
         ("run_create", ("workload",)), ("runs_csv", ("workload",)), ("workload_history_csv", ("workload",)),
         ("workload_history_json", ("workload",)), ("run_export_csv", ("run",)), ("run_export_json", ("run",))]


@pytest.mark.parametrize("page, objects", PAGES, ids=[name for name, _ in PAGES])
def test_a_page_takes_as_many_queries_for_twenty_runs_as_for_two(alice_client, workload, probe, prices, page,
                                                                   objects):
    runs = [make_run(workload, standard_report(probe)) for _ in range(2)]

    def url():
        ids = {"workload": workload.pk, "run": runs[-1].pk}
        return reverse(page, args=[ids[o] for o in objects])

    two = queries(alice_client, url())
    runs += [make_run(workload, standard_report(probe)) for _ in range(18)]
    twenty = queries(alice_client, url())

    assert len(twenty) == len(two), grown(two, twenty)
