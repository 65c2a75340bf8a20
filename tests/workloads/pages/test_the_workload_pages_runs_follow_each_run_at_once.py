"""The workload page keeps its list of runs as HTML between views (workloads.views.fragments), and a run that is
queued, claimed, advanced, finished or deleted shows as it now is on the very next view, never as it was."""

import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.template import loader_tags
from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads import deletion
from workloads.models import ComparisonRun

BADGE = "workloads/includes/status_badge.html"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def _rows(client, workload) -> dict[int, str]:
    """Each run's row in the page's list of runs, by run id, as text."""
    page = html(client.get(reverse("workload_detail", args=[workload.pk])))
    runs = page.split('<h2 id="runs">', 1)[1].split("</section>", 1)[0]
    return {int(pk): re.sub(r"<[^>]+>", " ", row).split()
            for pk, row in re.findall(r'<tr> <th scope="row"><a href="/runs/(\d+)/">(.*?)</tr>', runs)}


def _badges_drawn(client, workload) -> int:
    """How many status badges one view of the page renders from their template."""
    with mock.patch.object(loader_tags.IncludeNode, "render", autospec=True,
                           side_effect=loader_tags.IncludeNode.render) as include:
        assert client.get(reverse("workload_detail", args=[workload.pk])).status_code == 200
    return sum(1 for call in include.call_args_list if call.args[0].template.var == BADGE)


def test_the_list_of_runs_is_drawn_once_while_no_run_changes(alice_client, workload, probe, prices):
    for _ in range(3):
        make_run(workload, standard_report(probe))

    assert _badges_drawn(alice_client, workload) == 3
    assert _badges_drawn(alice_client, workload) == 0


def test_a_run_shows_as_it_is_now_on_the_next_view(alice_client, workload, probe, prices):
    finished = make_run(workload, standard_report(probe))
    assert list(_rows(alice_client, workload)) == [finished.pk]

    queued = make_run(workload, status=ComparisonRun.Status.QUEUED)
    rows = _rows(alice_client, workload)
    assert list(rows) == [queued.pk, finished.pk] and "queued" in rows[queued.pk]

    # As the worker writes them: plain UPDATEs, which send no signal.
    ComparisonRun.objects.filter(pk=queued.pk).update(status=ComparisonRun.Status.RUNNING, progress_done=3,
                                                      progress_total=10, device="cpu")
    assert {"running", "30%", "cpu"} <= set(_rows(alice_client, workload)[queued.pk])
    ComparisonRun.objects.filter(pk=queued.pk).update(progress_done=7)
    assert "70%" in _rows(alice_client, workload)[queued.pk]
    ComparisonRun.objects.filter(pk=queued.pk).update(status=ComparisonRun.Status.SUCCEEDED, progress_done=10)
    row = _rows(alice_client, workload)[queued.pk]
    assert "succeeded" in row and "running" not in row and "70%" not in row

    deletion.delete_run(finished)
    assert list(_rows(alice_client, workload)) == [queued.pk]


def test_the_list_is_on_the_organisations_clock(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    ComparisonRun.objects.filter(pk=run.pk).update(created_at="2026-03-01T23:30:00+00:00")
    assert "1 Mar 2026 23:30" in " ".join(_rows(alice_client, workload)[run.pk])

    workload.organisation.timezone = "Europe/Berlin"
    workload.organisation.save()
    assert "2 Mar 2026 00:30" in " ".join(_rows(alice_client, workload)[run.pk])
