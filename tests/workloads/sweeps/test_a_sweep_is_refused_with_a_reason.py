"""A group-size sweep is queued only when it could answer, and only by those who may change the workload; its page
is the organisation's alone."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from workloads.comparisons.sweep_starting import start_sweep
from workloads.models import GroupSweep


def test_it_refuses_a_workload_without_documents(workload, probe, alice):
    with pytest.raises(ValidationError, match="no documents yet"):
        start_sweep(workload, alice)
    assert not GroupSweep.objects.exists()


def test_it_refuses_a_workload_without_probes(workload, document, alice):
    with pytest.raises(ValidationError, match="no probes yet"):
        start_sweep(workload, alice)


@pytest.mark.parametrize("sizes", [[], [0], [2048], ["4"], [True], [2.5]])
def test_it_refuses_group_sizes_out_of_bounds_or_of_the_wrong_type(workload, document, probe, alice, sizes):
    with pytest.raises(ValidationError, match="group sizes must be whole numbers from 1 to 1024"):
        start_sweep(workload, alice, sizes)
    assert not GroupSweep.objects.exists()


def test_it_refuses_documents_longer_than_the_model(too_long, probe, alice):
    with pytest.raises(ValidationError, match="8,192|8192"):
        start_sweep(too_long, alice)


def test_it_refuses_a_second_sweep_while_one_is_unfinished(workload, document, probe, alice):
    first = start_sweep(workload, alice)
    assert first.status == "queued" and first.group_sizes == [1, 2, 4, 8]
    assert first.progress_total == 7  # one probe at four sizes, and at most three calibrated (none at 1)
    with pytest.raises(ValidationError, match="still to finish"):
        start_sweep(workload, alice)


def test_it_keeps_the_workloads_saved_settings_but_the_group_size(workload, document, probe, alice):
    workload.run_settings = {"strategies": ["full_index_share"], "window": 128, "topk": 512, "group_size": 2,
                             "gate_points": 10.0}
    workload.save()
    sweep = start_sweep(workload, alice)
    assert sweep.settings == {"window": 128, "topk": 512, "global_blocks": 2, "indexer": "pooled_mass",
                              "gate_points": 10.0}


def test_a_viewer_cannot_start_one_and_a_stranger_cannot_see_one(workload, document, probe, alice, vera,
                                                                   charlie_client):
    viewer = Client()
    viewer.force_login(vera)
    assert viewer.post(reverse("sweep_create", args=[workload.pk])).status_code == 403
    sweep = start_sweep(workload, alice)
    assert charlie_client.get(reverse("sweep_detail", args=[sweep.pk])).status_code == 404
    assert viewer.get(reverse("sweep_detail", args=[sweep.pk])).status_code == 200


def test_a_refused_start_says_why_on_the_workload_page(alice_client, workload, probe):
    response = alice_client.post(reverse("sweep_create", args=[workload.pk]), follow=True)
    assert "No sweep started: the workload has no documents yet: upload some first." in response.content.decode()
