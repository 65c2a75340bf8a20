"""A member deletes a workload after confirming: its documents, probes, uploads, runs, PDFs, sweeps and beat entry go,
the price book stays; never while one of its jobs (a run, an upload, a sweep) is queued or running, and never another
organisation's."""

import pytest
from django.urls import reverse
from django_celery_beat.models import PeriodicTask

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.models import ComparisonRun, Document, GpuPrice, GroupSweep, Probe, Summary, Upload, Workload


def test_the_page_asks_first_then_everything_goes(alice_client, workload, probe, prices, document):
    run = make_run(workload, standard_report(probe))
    Summary.objects.create(run=run, status="done", pdf=b"%PDF-1.7")
    Upload.objects.create(workload=workload, status="done")
    _sweep(workload, "succeeded")
    beat_entry = workload.periodic_task_id
    assert beat_entry is not None
    url = reverse("workload_delete", args=[workload.pk])
    assert f'href="{url}"' in html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    page = html(alice_client.get(url))
    assert "Delete the workload Supplier contracts?" in page
    assert ("with its 1 document, 1 probe, 1 upload, 1 comparison with their PDF summaries and 1 group-size sweep, "
            "and its schedule") in page
    assert Workload.objects.filter(pk=workload.pk).exists()  # asking deletes nothing

    response = alice_client.post(url, follow=True)

    assert response.redirect_chain[-1][0] == reverse("dashboard")
    assert "Deleted the workload Supplier contracts and all it held." in html(response)
    for model in (Workload, Document, Probe, Upload, ComparisonRun, Summary, GroupSweep):
        assert not model.objects.exists(), model
    assert not PeriodicTask.objects.filter(pk=beat_entry).exists()
    assert GpuPrice.objects.count() == 2  # the price book is the organisation's, not the workload's


def _sweep(workload, status):
    return GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[1, 4],
                                     status=status)


@pytest.mark.parametrize("job", ["run", "upload", "sweep"])
@pytest.mark.parametrize("status", ["queued", "running"])
def test_a_workload_at_work_is_kept_and_says_why(alice_client, workload, job, status):
    busy = {"run": lambda: make_run(workload, status=status),
            "upload": lambda: Upload.objects.create(workload=workload, status=status),
            "sweep": lambda: _sweep(workload, status)}[job]()

    response = alice_client.post(reverse("workload_delete", args=[workload.pk]), follow=True)

    assert response.redirect_chain[-1][0] == reverse("workload_detail", args=[workload.pk])
    assert f"{job} {busy.pk} is {status}: " in html(response)
    assert Workload.objects.filter(pk=workload.pk).exists()


def test_charlie_cannot_delete_acmes_workload(charlie_client, workload):
    assert charlie_client.get(reverse("workload_delete", args=[workload.pk])).status_code == 404
    assert charlie_client.post(reverse("workload_delete", args=[workload.pk])).status_code == 404
    assert Workload.objects.filter(pk=workload.pk).exists()


def test_an_anonymous_visitor_is_sent_to_log_in(client, workload):
    url = reverse("workload_delete", args=[workload.pk])
    assert client.post(url)["Location"] == f"{reverse('login')}?next={url}"
    assert Workload.objects.filter(pk=workload.pk).exists()
