"""A queued sweep runs for real in the task, on the default model, and its page recommends one group size with the
figures behind it."""

import re

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.comparisons.sweep_starting import start_sweep
from workloads.models import Document, GroupSweep, Probe
from workloads.tasks import run_group_sweep

pytestmark = pytest.mark.model

MEMO = "The monthly service fee is $4,500.\n\nDeliveries arrive on Tuesdays.\n\n" * 40


def test_the_task_measures_every_size_and_the_page_recommends_one(alice_client, workload, alice):
    Document.objects.create(workload=workload, name="memo.txt", text=MEMO, tokens=600, lines=160,
                            size_bytes=len(MEMO))
    Probe.objects.create(workload=workload, question="What is the monthly service fee?", answer="$4,500")
    Probe.objects.create(workload=workload, question="When do deliveries arrive?", answer="Tuesdays",
                         kind="retrieval")
    # A budget far below the memo, so that the sizes differ in what they select.
    workload.run_settings = {"window": 64, "topk": 64, "global_blocks": 1}
    workload.save()
    sweep = start_sweep(workload, alice, [1, 4])

    run_group_sweep(sweep.pk)
    run_group_sweep(sweep.pk)  # delivered twice: done once

    sweep.refresh_from_db()
    assert sweep.status == GroupSweep.Status.SUCCEEDED, sweep.error
    # Sizes 1 and 4, and 4 again in calibrated groups (which move SmolLM2's anchors), each asked 2 probes: the memo is
    # too short to calibrate on, so on the model's calibration text, as a comparison run of it would.
    assert sweep.progress_done == sweep.progress_total == 6 and sweep.device.startswith("cpu")
    one, four, four_calibrated = sweep.report["points"]
    assert four["flops_indexer"] < one["flops_indexer"]
    assert four_calibrated["calibrated"] and four_calibrated["anchors"] != four["anchors"]
    chosen = {p["name"]: p for p in sweep.report["points"]}[sweep.report["recommended"]]

    page = html(alice_client.get(reverse("sweep_detail", args=[sweep.pk])))
    size, right = chosen["group_size"], sum(chosen["correct"])
    where = r", in calibrated groups \(the indexer runs at layers [\d, ]+\)" * chosen["calibrated"]
    assert re.search(rf"Share each indexer across {size} layers?{where}: {right} of 2 questions right "
                     r"\(\d+%, 95% interval \d+%–\d+%\), at [\d.]+ ledger TFLOP", page)
    assert "4 layers, calibrated" in page
    assert ("Calibration: calibrated anchor layers asked at group size 4, calibrated on the model&#x27;s calibration "
            "text: the workload&#x27;s documents could not calibrate (calibration text of ") in page
    assert 'data-chart="sweep-flops"' in page and 'data-chart="sweep-seconds"' in page
    # Per kind of question too: is 4 the sweet spot for lookups and for the questions whose kind was not chosen?
    assert {kind: cell["n"] for kind, cell in four["quality"]["by_kind"].items()} == {"kind not chosen": 1,
                                                                                    "lookup": 1}
    assert "Right answers by kind of question" in page and f"{four['quality']['by_kind']['lookup']['correct']} of 1" \
        in page
    workload_page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))
    assert f'<a href="{reverse("sweep_detail", args=[sweep.pk])}">sweep {sweep.pk}</a>' in workload_page
