"""Starting a comparison from the workload page: chosen strategies and settings, queued once the transaction commits."""

from django.urls import reverse

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import html
from workloads.comparisons.starting import DEFAULT_STRATEGIES
from workloads.models import ComparisonRun
from engine.core.run_settings import STRATEGIES

SETTINGS = {"group_size": "4", "window": "128", "topk": "512", "global_blocks": "2", "indexer": "pooled",
            "anchors": "uniform",
            "chunk_tokens": "1024", "chunk_overlap": "128", "gate_points": "2.5"}


def test_the_form_offers_every_strategy_with_the_defaults_ticked(alice_client, workload):
    page = alice_client.get(reverse("workload_detail", args=[workload.pk])).content.decode()
    assert f'action="{reverse("run_create", args=[workload.pk])}"' in page
    for i, strategy in enumerate(STRATEGIES):
        ticked = " checked" if strategy in DEFAULT_STRATEGIES else ">"
        assert f'type="checkbox" name="strategies" value="{strategy}" id="id_strategies_{i}"{ticked}' in page
    assert 'name="window" value="256"' in page and 'name="gate_points" value="5.0"' in page
    assert "full_sliding_window" not in DEFAULT_STRATEGIES  # so the loop above saw one box offered but not ticked
    # The schedule panel names the last manual comparison's settings, which may not be the defaults ticked here.
    note = ("The fields start at the defaults. The comparison you start also sets the strategies and settings that "
            "scheduled comparisons use from then on.")
    assert note in html(alice_client.get(reverse("run_create", args=[workload.pk])))
    assert note in html(alice_client.get(reverse("workload_detail", args=[workload.pk])))


def test_it_starts_a_run_with_chosen_strategies(alice_client, alice, workload, document, probe, prices,
                                                django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(reverse("run_create", args=[workload.pk]),
                                     {"strategies": ["chunked", "full_index_share"], **SETTINGS})

    run = ComparisonRun.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("run_detail", args=[run.pk])
    assert run.strategies == ["chunked", "full_index_share"]
    assert (run.status, run.created_by, run.model, run.units_of_work) == ("queued", alice, MODEL, 1)
    assert (run.group_size, run.window, run.topk, run.global_blocks, run.indexer) == (4, 128, 512, 2, "pooled")
    assert run.anchors == "uniform"
    assert (run.chunk_tokens, run.chunk_overlap, run.gate_points) == (1024, 128, 2.5)
    assert [c.args for c in callbacks] == [("workloads.run_comparison", (run.pk,))]  # task name, arguments

    page = alice_client.get(response["Location"]).content.decode()
    assert "Comparison queued" in page and "Cancel the comparison" in page
