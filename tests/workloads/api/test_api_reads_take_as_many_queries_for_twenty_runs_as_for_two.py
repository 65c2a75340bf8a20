"""Every API read of a workload or its runs takes as many queries with 20 runs in the workload as with 2."""

import pytest

from tests.workloads.pages.conftest import make_run, standard_report
from tests.workloads.pages.query_counts import grown, queries
from workloads.models import ApiToken

READS = ["/api/workloads", "/api/workloads/{workload}", "/api/workloads/{workload}/runs",
         "/api/runs/{run}", "/api/runs/{run}?answers=true", "/api/workloads/{workload}/runs.csv",
         "/api/workloads/{workload}/history.json", "/api/runs/{run}/export.json"]


@pytest.mark.parametrize("path", READS)
def test_an_api_read_takes_as_many_queries_for_twenty_runs_as_for_two(client, alice, workload, probe, prices, path):
    bearer = f"Bearer {ApiToken.issue(alice)}"
    runs = [make_run(workload, standard_report(probe)) for _ in range(2)]
    two = queries(client, path.format(workload=workload.pk, run=runs[-1].pk), Authorization=bearer)
    runs += [make_run(workload, standard_report(probe)) for _ in range(18)]
    twenty = queries(client, path.format(workload=workload.pk, run=runs[-1].pk), Authorization=bearer)

    assert len(twenty) == len(two), grown(two, twenty)
