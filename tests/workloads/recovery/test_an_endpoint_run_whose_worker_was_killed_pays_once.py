"""A comparison through an endpoint whose worker was killed with SIGKILL mid-run is taken over and finishes without
paying again for the calls already answered (issue 38): each reply was kept as it arrived, and the server, a real
`python -m engine serve` process, counts what it was asked. Only a call in flight at the kill, answered by the server
but never stored, can be asked twice."""

import pytest

from tests.workloads.live import requests_served, serve, stop, wait_for
from tests.workloads.readers.conftest import make_endpoint
from workloads.comparisons.starting import start_run
from workloads.models import ComparisonRun, EndpointCall

pytestmark = [pytest.mark.model, pytest.mark.worker]

KEY = "sk-takeover-test-5512"


def test_a_killed_endpoint_run_resumes_without_asking_again(workers, ready_workload, alice, tmp_path):
    server_log = tmp_path / "serve.log"
    server, url = serve(server_log, KEY, "--mode", "dense")
    try:
        endpoint = make_endpoint(ready_workload.organisation, url, KEY)
        first, log, _ = workers.start()
        run = start_run(ready_workload, alice, ["chunked"], engine=False, endpoints=[endpoint], chunk_tokens=16,
                        chunk_overlap=2)
        wait_for(lambda: EndpointCall.objects.filter(run=run).count() >= 2, 300, "two answered calls", every=0.05)
        workers.kill(first)
        kept = EndpointCall.objects.filter(run=run).count()

        _, log, _ = workers.start()
        wait_for(lambda: ComparisonRun.objects.get(pk=run.pk).finished, 300, "the run to end", every=0.2)
        run.refresh_from_db()
        assert run.status == ComparisonRun.Status.SUCCEEDED, run.error or log.read_text()[-3000:]
        assert run.takeovers == 1
        calls = EndpointCall.objects.filter(run=run).count()
        assert run.report["calls"]["reused"] == kept and run.report["calls"]["made"] == calls - kept
        assert requests_served(server_log) - calls in (0, 1)  # at most the call in flight at the kill
        assert run.results.get().calls == calls
    finally:
        stop(server)
