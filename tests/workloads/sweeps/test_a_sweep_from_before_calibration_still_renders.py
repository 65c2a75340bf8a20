"""Sweeps stored before calibrated arms named their arms by nothing and recommended a bare group size: their page
still shows each size, marks the recommended one and says what it recommends."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import GroupSweep


def _point(size: int, correct: list[bool], flops: float) -> dict:
    return {"group_size": size, "correct": correct, "seconds": 2.0 * size, "flops": flops, "flops_indexer": flops / 4,
            "rate": {"median": 1.0, "low": 0.9, "high": 1.1},
            "quality": {"accuracy": sum(correct) / len(correct), "n_probes": len(correct), "ci95": [0.2, 1.0],
                        "f1": 0.5, "gate": "within", "points_below": 0.0, "mcnemar_p": None, "probes_to_tell": None}}


def test_an_old_report_renders_with_its_recommended_size(alice_client, workload):
    report = {"model": workload.target_model, "strategy": "full_index_share", "probes": 2, "gate_points": 5.0,
              "attention": {}, "order": [1, 4, 4, 1], "recommended": 4,
              "points": [_point(1, [True, True], 9e12), _point(4, [True, True], 7e12)]}
    sweep = GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[1, 4],
                                      status=GroupSweep.Status.SUCCEEDED, report=report)

    page = html(alice_client.get(reverse("sweep_detail", args=[sweep.pk])))

    assert "Share each indexer across 4 layers: 2 of 2 questions right" in page
    assert '<tr class="threshold">' in page and "calibrated" not in page.split("<table>")[1]
    assert 'data-chart="sweep-flops"' in page
