"""Starting a run queues it with the strategies and settings asked for; bad settings save nothing."""

import pytest

from engine.core.run_settings import DEFAULT_STRATEGIES, STRATEGIES

from workloads.models import ComparisonRun, Document, Probe

from ..conftest import MODEL


@pytest.fixture
def ready(workload, document, probe, prices):
    return workload


def test_it_queues_a_run_with_the_strategies_and_settings(as_alice, alice, ready, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        response = as_alice.post(f"/workloads/{ready.pk}/runs", {
            "strategies": ["chunked", "full_index_share", "chunked"], "group_size": 2, "window": 128,
            "indexer": "pooled", "anchors": "uniform", "chunk_tokens": 256, "chunk_overlap": 32, "gate_points": 2.5})

    assert response.status_code == 202
    body = response.json()
    run = ComparisonRun.objects.get(pk=body["id"])
    assert (run.status, run.strategies, run.model, run.created_by) == (
        "queued", ["chunked", "full_index_share"], MODEL, alice)
    settings = ("group_size", "window", "topk", "indexer", "anchors", "chunk_tokens", "chunk_overlap", "gate_points")
    assert tuple(getattr(run, k) for k in settings) == (2, 128, 256, "pooled", "uniform", 256, 32, 2.5)
    assert body["status"] == "queued" and body["strategies"] == ["chunked", "full_index_share"]
    assert body["settings"]["window"] == 128 and body["results"] == [] and body["units_of_work"] == 1
    assert (body["trigger"], body["period"]) == ("manual", run.period)
    assert len(callbacks) == 1  # run_comparison.delay, once committed


def test_it_uses_the_default_strategies_and_settings_when_none_are_given(as_alice, ready):
    response = as_alice.post(f"/workloads/{ready.pk}/runs", {})

    assert response.status_code == 202
    run = ComparisonRun.objects.get()
    assert run.strategies == list(DEFAULT_STRATEGIES)
    assert (run.group_size, run.window, run.topk) == (4, 256, 256)


def test_it_accepts_an_empty_body_as_all_defaults(as_alice, ready):
    assert as_alice.post(f"/workloads/{ready.pk}/runs").status_code == 202


def test_it_lists_the_workloads_runs_newest_first(as_alice, ready):
    first = as_alice.post(f"/workloads/{ready.pk}/runs", {"strategies": ["chunked"]}).json()["id"]
    second = as_alice.post(f"/workloads/{ready.pk}/runs", {"strategies": ["full_dense"]}).json()["id"]

    listed = as_alice.get(f"/workloads/{ready.pk}/runs").json()

    assert [r["id"] for r in listed] == [second, first]
    assert listed[0]["progress"] == {"done": 0, "total": 0, "percent": 0, "message": ""}


BAD = [
    ({"strategies": []}, "strategies: List should have at least 1 item after validation, not 0"),
    ({"strategies": ["rag"]},
     "strategies.0: Input should be " + ", ".join(f"'{s}'" for s in STRATEGIES[:-1]) + f" or '{STRATEGIES[-1]}'"),
    ({"strategies": "chunked"}, "strategies: Input should be a valid list"),
    ({"group_size": 0}, "group_size: Input should be greater than or equal to 1"),
    ({"group_size": 1025}, "group_size: Input should be less than or equal to 1024"),
    ({"window": 10**12}, "window: Input should be less than or equal to 16777216"),
    ({"topk": -5}, "topk: Input should be greater than or equal to 0"),
    ({"topk": "many"}, "topk: Input should be a valid integer, unable to parse string as an integer"),
    ({"window": True}, None),
    ({"indexer": "learned"}, "indexer: Input should be 'pooled_mass', 'mass', 'exact' or 'pooled'"),
    ({"anchors": "random"}, "anchors: Input should be 'workload', 'calibrated' or 'uniform'"),
    ({"gate_points": 101}, "gate_points: Input should be less than or equal to 100"),
    ({"chunk_tokens": 128, "chunk_overlap": 128}, "chunk overlap (128 tokens) must be smaller than the chunk size "
                                                   "(128 tokens)"),
    ({"chunk_overlap": 600}, "chunk overlap (600 tokens) must be smaller than the chunk size (512 tokens)"),
    ({"chunk_tokens": 32}, "chunk overlap (64 tokens) must be smaller than the chunk size (32 tokens)"),  # the default
    ({"chunk_tokens": 8000}, "chunk size must be between 16 and 7936 tokens: the model has 8192 positions, and the "
                             "question and answer need room; got 8000"),
    ({"windw": 128}, "windw: Extra inputs are not permitted"),
]


@pytest.mark.parametrize(("data", "detail"), BAD, ids=[str(d) for d, _ in BAD])
def test_it_refuses_bad_settings_and_saves_nothing(as_alice, ready, data, detail, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        response = as_alice.post(f"/workloads/{ready.pk}/runs", data)

    assert response.status_code == 400
    if detail:
        assert response.json() == {"detail": detail}
    assert not ComparisonRun.objects.exists() and not callbacks


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_it_refuses_a_gate_that_is_not_a_finite_number(as_alice, ready, raw):
    response = as_alice.post(f"/workloads/{ready.pk}/runs", raw='{"gate_points": %s}' % raw)

    assert response.status_code == 400
    assert not ComparisonRun.objects.exists()


def test_it_refuses_a_workload_without_documents(as_alice, workload, probe, prices):
    response = as_alice.post(f"/workloads/{workload.pk}/runs", {})

    assert (response.status_code, response.json()) == (
        400, {"detail": "the workload has no documents yet: upload some first"})
    assert not ComparisonRun.objects.exists()


def test_it_refuses_a_workload_without_probes(as_alice, workload, document, prices):
    response = as_alice.post(f"/workloads/{workload.pk}/runs", {})

    assert response.json() == {"detail": "the workload has no probes yet: add or generate questions first"}
    assert not ComparisonRun.objects.exists()


def test_it_refuses_a_workload_whose_api_price_is_missing(as_alice, workload, document, probe):
    response = as_alice.post(f"/workloads/{workload.pk}/runs", {})

    assert response.status_code == 400
    assert response.json()["detail"].startswith(f"no API price for {MODEL} from example-api")
    assert not ComparisonRun.objects.exists()


def test_bob_can_start_a_run_on_the_shared_workload(as_bob, bob, ready):
    response = as_bob.post(f"/workloads/{ready.pk}/runs", {"strategies": ["chunked"]})

    assert response.status_code == 202
    assert ComparisonRun.objects.get().created_by == bob
    assert Document.objects.count() == 1 and Probe.objects.count() == 1
