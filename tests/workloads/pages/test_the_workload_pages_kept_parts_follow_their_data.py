"""The workload page keeps its fit table, its lists of documents and probes and its charts as HTML (keyed on what they
show), and its next firings until the first of them passes: a new document, probe or run, an edited or deleted one,
another viewer's role, a changed schedule or the clock passing a firing shows on the very next view, never what was
kept."""

import datetime as dt
import json
import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.models import Document, Probe
from workloads.reporting import page_charts, scheduling


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def _page(client, workload) -> str:
    return html(client.get(reverse("workload_detail", args=[workload.pk])))


def _fit(page: str) -> str:
    return page.split("data-preflight>", 1)[1].split("<details>", 1)[0]


def test_the_fit_table_follows_documents_probes_and_measured_runs(alice_client, workload, probe, prices):
    assert "No documents yet: once there are some" in _fit(_page(alice_client, workload))

    Document.objects.create(workload=workload, name="msa.txt", text="The notice period is 90 days.", tokens=1234,
                            lines=1, size_bytes=29)
    fit = _fit(_page(alice_client, workload))
    assert "the 1 document hold 1,234 tokens, and there is 1 probe." in fit
    assert "as measured in run" not in fit

    Probe.objects.create(workload=workload, question="Who may terminate?", answer="either party")
    assert "there are 2 probes." in _fit(_page(alice_client, workload))

    run = make_run(workload, standard_report(probe))  # the durations now rest on its measured rates
    assert f"as measured in run {run.pk}" in _fit(_page(alice_client, workload))


def test_the_probe_list_follows_an_edit_and_the_viewers_role(alice_client, vera, workload, probe):
    edit = reverse("probe_edit", args=[workload.pk, probe.pk])
    page = _page(alice_client, workload)
    assert "What is the notice period?" in page and f'href="{edit}"' in page

    probe.question = "How long is the notice period?"
    probe.save()
    page = _page(alice_client, workload)
    assert "How long is the notice period?" in page and "What is the notice period?" not in page

    viewer = Client()
    viewer.force_login(vera)
    page = _page(viewer, workload)
    assert "How long is the notice period?" in page and f'href="{edit}"' not in page


def test_the_next_firings_are_kept_until_the_first_passes(alice_client, workload):
    assert f", 06:00 {workload.organisation.timezone}</time>" in _page(alice_client, workload)
    crontab = workload.periodic_task.crontab
    now = dt.datetime(2026, 5, 10, 12, 0, tzinfo=dt.UTC)
    times = scheduling.next_fire_times(workload, after=now)
    assert times == scheduling.fire_times(crontab.schedule, 4, now)  # 1 July, 1 October, ...

    # Any moment before the first gives the same four; the first passing gives the next four, from the cache or not.
    assert scheduling.next_fire_times(workload, after=times[0] - dt.timedelta(seconds=1)) == times
    after_first = times[0] + dt.timedelta(seconds=1)
    moved = scheduling.next_fire_times(workload, after=after_first)
    assert moved[:3] == times[1:] and moved == scheduling.fire_times(crontab.schedule, 4, after_first)
    # An earlier moment than the kept one is not served what was kept after it.
    assert scheduling.next_fire_times(workload, after=now) == times

    workload.schedule_hour = 9  # the beat entry follows the workload (its post_save)
    workload.save()
    later = scheduling.next_fire_times(workload, after=now)
    assert [t.hour for t in later] == [9] * 4 and [t.date() for t in later] == [t.date() for t in times]
    page = _page(alice_client, workload)  # the page's list of them, kept as HTML, follows at once
    assert ", 09:00 UTC</time>" in page and ", 06:00 UTC</time>" not in page


def test_the_document_list_follows_its_documents_and_deletes_through_the_pages_form(bob, vera, workload, probe):
    document = Document.objects.create(workload=workload, name="msa.txt", text="The notice period is 90 days.",
                                       tokens=1234, lines=1, size_bytes=29)
    member = Client(enforce_csrf_checks=True)
    member.force_login(bob)
    delete = reverse("document_delete", args=[workload.pk, document.pk])
    page = _page(member, workload)
    assert f'form="document-delete" formaction="{delete}"' in page

    viewer = Client()
    viewer.force_login(vera)
    page = _page(viewer, workload)  # the same documents, for a role that deletes nothing
    assert "msa.txt" in page and delete not in page and 'id="document-delete"' not in page

    Document.objects.create(workload=workload, name="annex.txt", text="Either party may terminate.", tokens=5,
                            lines=1, size_bytes=27)
    page = _page(member, workload)
    assert "annex.txt" in page and '<th scope="row">2 documents</th>' in page

    # The button posts the page's one form, with its CSRF token, to the document's own address.
    token = re.search(r'<form method="post" id="document-delete" hidden><input type="hidden" '
                      r'name="csrfmiddlewaretoken" value="([^"]+)">', page).group(1)
    assert member.post(delete, {"csrfmiddlewaretoken": token}).status_code == 302
    assert not Document.objects.filter(pk=document.pk).exists()
    page = _page(member, workload)
    assert delete not in page and f'{document.pk}/">msa.txt</a>' not in page
    assert '<th scope="row">1 document</th>' in page


def test_the_charts_are_read_once_and_follow_a_new_run(alice_client, workload, probe, prices):
    make_run(workload, standard_report(probe))
    with mock.patch.object(page_charts, "cache", wraps=cache) as kept:
        _page(alice_client, workload)
        assert any(call.args[0].startswith("chart:") for call in kept.get.call_args_list)
        kept.get.reset_mock()
        _page(alice_client, workload)  # their HTML kept: the charts themselves are not read
        assert not any(call.args[0].startswith("chart:") for call in kept.get.call_args_list)

    make_run(workload, standard_report(probe))
    figure = re.search(r'<script id="chart-cost-over-time-data" type="application/json">(.*?)</script>',
                       _page(alice_client, workload))
    dense = next(trace for trace in json.loads(figure.group(1))["data"] if trace["name"] == "Whole documents (dense)")
    assert len(dense["y"]) == 2
