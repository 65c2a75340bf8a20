"""The dashboard lists the alerts of each workload's latest succeeded run, newest first, linked to the run."""

from django.urls import reverse

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import html, make_run
from workloads.models import ComparisonRun, Workload

from .conftest import Q1, Q3, Q4, run_at


def test_it_shows_only_the_alerts_of_each_workloads_latest_succeeded_run(alice_client, acme, workload, probe,
                                                                        prices):
    other = Workload.objects.create(organisation=acme, name="Support tickets", kind=Workload.Kind.SUPPORT,
                                    target_model=MODEL, api_provider="example-api")
    run_at(workload, probe, Q3, chunked={"seconds": 36})
    superseded = run_at(workload, probe, Q4, chunked={"seconds": 72})  # +100%: an alert, then superseded
    latest = run_at(workload, probe, Q1, chunked={"seconds": 72, "accuracy": 0.5})
    make_run(workload, status=ComparisonRun.Status.FAILED)  # a later failed run does not hide the alerts
    run_at(other, probe, Q3, full_dense={"seconds": 36})
    other_latest = run_at(other, probe, Q4, full_dense={"seconds": 36, "gated": True})

    page = html(alice_client.get(reverse("dashboard")))

    assert superseded.alerts.exists() and "costs 100% more" not in page
    latest_link = (f'<a href="{reverse("run_detail", args=[latest.pk])}">'
                   f"Supplier contracts, run {latest.pk} (2027-Q1)</a>")
    other_link = (f'<a href="{reverse("run_detail", args=[other_latest.pk])}">'
                  f"Support tickets, run {other_latest.pk} (2026-Q4)</a>")
    assert f"{latest_link}: Ask every chunk&#x27;s accuracy fell 50 points since 2026-Q4" in page
    assert f"{other_link}: Whole documents (dense) fell out of the quality gate in 2026-Q4" in page
    assert page.index(latest_link) < page.index(other_link)  # newest first
    assert page.count('<li class="alert">') == 2


def test_nothing_is_rendered_without_alerts(alice_client, workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 36})
    run_at(workload, probe, Q4, chunked={"seconds": 36})

    page = html(alice_client.get(reverse("dashboard")))

    assert 'id="alerts"' not in page and 'class="alert' not in page


def test_another_organisations_alerts_are_not_shown(client, charlie, workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 36})
    run_at(workload, probe, Q4, chunked={"seconds": 72})
    client.force_login(charlie)

    page = html(client.get(reverse("dashboard")))

    assert "Supplier contracts" not in page and 'class="alert' not in page
