"""A comparison whose worker was killed with SIGKILL at about 80% of its calls is taken over by the next worker to
start, within the lease's bound, and succeeds once, with one set of result rows (it once stayed "running" at its step
for hours); the worker that takes it over makes only the calls never answered (issue 40: it started again from
zero)."""

import time

import pytest

from tests.workloads.live import wait_for
from workloads.comparisons.starting import start_run
from workloads.models import ComparisonRun, EngineCall, StrategyResult

pytestmark = [pytest.mark.model, pytest.mark.worker]

STRATEGIES = ["chunked", "full_index_share"]


def test_a_run_killed_at_80_percent_is_taken_over_and_makes_only_the_unanswered_calls(workers, ready_workload, alice):
    first, log, _ = workers.start()
    run = start_run(ready_workload, alice, STRATEGIES, chunk_tokens=16, chunk_overlap=2)

    def most_answered():
        run.refresh_from_db()
        return (run.status == ComparisonRun.Status.RUNNING and run.progress_total > 0
                and EngineCall.objects.filter(run=run).count() >= 0.8 * run.progress_total)

    wait_for(most_answered, 300, "80% of the comparison's calls", every=0.02)
    workers.kill(first)
    killed_at = time.monotonic()
    killed_holder = run.claimed_by
    kept = EngineCall.objects.filter(run=run).count()  # the killed worker keeps nothing more
    assert kept < run.progress_total, "the run ended before the kill: nothing to take over"

    _, log, ready_at = workers.start()

    def taken_over():
        run.refresh_from_db()
        return run.claimed_by != killed_holder

    wait_for(taken_over, 60, "another worker to take the run over", every=0.2)
    takeover_s, since_kill_s = time.monotonic() - ready_at, time.monotonic() - killed_at
    wait_for(lambda: ComparisonRun.objects.get(pk=run.pk).finished, 300, "the run to end", every=0.2)
    ended_s = time.monotonic() - ready_at
    print(f"run taken over {takeover_s:.1f} s, ended {ended_s:.1f} s after the new worker was ready "
          f"({since_kill_s:.1f} s from the kill to the takeover)")

    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error or log.read_text()[-3000:]
    assert run.takeovers == 1 and run.progress_done == run.progress_total
    # The calls made after the takeover are exactly the unanswered ones; each call was kept once.
    assert run.report["calls"] == {"made": run.progress_total - kept, "reused": kept}
    assert EngineCall.objects.filter(run=run).count() == run.progress_total
    results = StrategyResult.objects.filter(run=run)
    assert sorted(results.values_list("strategy", flat=True)) == sorted(STRATEGIES)
    assert all(result.answers.count() == 2 for result in results)
    assert takeover_s < 60
