"""A comparison split into shards runs on real Celery workers with SmolLM2 (issue 41):

- the same comparison as one job and as three shards, spread over two worker processes, gives the same answers and
  the same statistics (accuracy, Wilson interval, F1, McNemar p, gates), the same tokens, calls and FLOPs, and the
  merge makes no call of its own;
- a worker killed mid-shard costs only that shard: another worker takes it over and makes only its calls never
  answered, the shards done before the kill are not asked again, and the run ends with one set of results.
"""

import time

import pytest

from tests.workloads.live import wait_for
from workloads.comparisons.starting import start_run
from workloads.models import ComparisonRun, EngineCall, Probe, RunShard, StrategyResult

pytestmark = [pytest.mark.model, pytest.mark.worker]

STRATEGIES = ["chunked", "retrieval", "full_index_share_cached"]
SETTINGS = {"chunk_tokens": 16, "chunk_overlap": 2}
# The seconds are each call's own measurement, on a 2-core host shared with other work: two runs of the same calls
# differ by tens of percent there, so the bound is loose; the tokens, calls and FLOPs are the same exactly.
SECONDS_WITHIN = 3.0
SHARD_STATISTICS = ("accuracy", "accuracy_low", "accuracy_high", "f1", "mcnemar_p", "gate", "gated", "n_probes",
                    "tokens_in", "tokens_out", "calls", "flops_total", "top1_agreement", "index_overlap")


@pytest.fixture
def three_questions(ready_workload):
    Probe.objects.create(workload=ready_workload, question="Who is the account manager of Northwind Logistics?",
                         answer="Dana Reyes")
    return ready_workload


def _run(workload, user, settings, shard_questions: int) -> ComparisonRun:
    settings.RUN_SHARD_QUESTIONS = shard_questions
    run = start_run(workload, user, STRATEGIES, confirm_refusals=True, confirm_duration=True, **SETTINGS)
    wait_for(lambda: ComparisonRun.objects.get(pk=run.pk).finished, 600, f"run {run.pk} to end", every=0.5)
    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    return run


def _question(key: str) -> str:
    """The question a kept call belongs to ("prefill" for a cached strategy's one-off prefill)."""
    return key.split(":")[1]


def test_one_shard_and_three_shards_on_two_workers_give_the_same_answers_and_statistics(workers, three_questions,
                                                                                         alice, settings):
    workers.start()
    workers.start()

    whole = _run(three_questions, alice, settings, 3)
    sharded = _run(three_questions, alice, settings, 1)

    assert not whole.shards.exists()
    shards = list(sharded.shards.all())
    assert [s.questions for s in shards] == [[0], [1], [2]] and {s.status for s in shards} == {"done"}
    assert len({s.claimed_by for s in shards}) == 2, "the shards were not spread over both workers"
    assert sharded.report["calls"] == {"made": 0, "reused": whole.report["calls"]["made"]}
    assert sharded.progress_done == sharded.progress_total > 0
    for name in STRATEGIES:
        one, many = whole.report["strategies"][name], sharded.report["strategies"][name]
        assert [p["output"] for p in many["probes"]] == [p["output"] for p in one["probes"]], name
        assert many["quality"] == one["quality"], name
        for figure in ("calls", "tokens_in", "tokens_out", "flops"):
            assert many[figure] == one[figure], (name, figure)
        print(f"{name}: {one['seconds']:.2f} s as one job, {many['seconds']:.2f} s in three shards")
        assert one["seconds"] / SECONDS_WITHIN < many["seconds"] < one["seconds"] * SECONDS_WITHIN, name
    rows = {r.strategy: r for r in StrategyResult.objects.filter(run=whole)}
    for row in StrategyResult.objects.filter(run=sharded):
        assert {f: getattr(row, f) for f in SHARD_STATISTICS} == {f: getattr(rows[row.strategy], f)
                                                                 for f in SHARD_STATISTICS}, row.strategy


def test_a_worker_killed_mid_shard_costs_only_that_shard(workers, three_questions, alice, settings):
    first, _, _ = workers.start()
    settings.RUN_SHARD_QUESTIONS = 1
    run = start_run(three_questions, alice, STRATEGIES, confirm_refusals=True, confirm_duration=True, **SETTINGS)

    def one_done_and_another_midway():
        shards = list(RunShard.objects.filter(run=run))
        running = [s for s in shards if s.status == "running" and s.progress_total]
        if sum(s.status == "done" for s in shards) != 1 or len(running) != 1:
            return None
        (shard,) = running
        asked = [k for k in EngineCall.objects.filter(run=run).values_list("key", flat=True)
                 if _question(k) == str(shard.questions[0])]
        return shard if 0 < len(asked) < shard.progress_total - 1 else None

    killed = wait_for(one_done_and_another_midway, 600, "a shard midway, after another ended", every=0.02)
    workers.kill(first)
    killed_at = time.monotonic()
    kept = set(EngineCall.objects.filter(run=run).values_list("key", flat=True))
    done_before = {s.pk: (s.questions[0], s.finished_at) for s in RunShard.objects.filter(run=run, status="done")}
    assert len(done_before) == 1, "a shard ended meanwhile: nothing to tell apart"

    workers.start()
    wait_for(lambda: ComparisonRun.objects.get(pk=run.pk).finished, 600, "the run to end", every=0.5)
    print(f"run ended {time.monotonic() - killed_at:.1f} s after the kill")

    run.refresh_from_db()
    assert run.status == ComparisonRun.Status.SUCCEEDED, run.error
    shards = list(run.shards.all())
    assert [s.takeovers for s in shards] == [int(s.pk == killed.pk) for s in shards]
    assert all(s.status == "done" for s in shards)
    assert {s.pk: (s.questions[0], s.finished_at) for s in shards if s.pk in done_before} == done_before
    made_after = {_question(k) for k in set(EngineCall.objects.filter(run=run).values_list("key", flat=True)) - kept}
    # After the kill: the killed shard's calls never answered, and the shard not yet begun; none of the one done.
    (done_question, _), = done_before.values()
    assert str(killed.questions[0]) in made_after
    assert str(done_question) not in made_after and "prefill" not in made_after
    # Each question's call kept once, reused by the merge (the cached strategy's prefill is kept too, but billed apart).
    questions_calls = [k for k in EngineCall.objects.filter(run=run).values_list("key", flat=True)
                       if _question(k) != "prefill"]
    assert run.report["calls"] == {"made": 0, "reused": len(questions_calls)}
    results = StrategyResult.objects.filter(run=run)
    assert sorted(results.values_list("strategy", flat=True)) == sorted(STRATEGIES)
    assert all(result.answers.count() == 3 for result in results)
