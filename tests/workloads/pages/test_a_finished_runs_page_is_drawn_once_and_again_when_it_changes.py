"""A succeeded run's figures are drawn once and kept as HTML (workloads.views.run_parts): the next view draws none of
them, and a re-pricing, a new unit or volume for its workload, another clock, or the run finishing shows on the very
next view, never what was kept. What follows the viewer (the forms, their CSRF tokens, what a role allows) and what
other rows change (its earlier pricings, its PDF summary) is drawn on every view."""

import datetime as dt
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.comparisons import pricing
from workloads.comparisons.results import store_report
from workloads.models import ComparisonRun, GpuPrice
from workloads.views import run_parts

MARCH = dt.datetime(2026, 3, 1, 9, 30, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


def _page(client, run) -> str:
    return html(client.get(reverse("run_detail", args=[run.pk])))


def _draws(client, run) -> int:
    """How many times one view of the run page draws the run's parts."""
    with mock.patch.object(run_parts, "_draw", wraps=run_parts._draw) as draw:
        _page(client, run)
    return draw.call_count


def test_a_succeeded_run_is_drawn_once_and_a_running_one_on_every_view(alice_client, workload, probe, prices):
    finished = make_run(workload, standard_report(probe))
    assert _draws(alice_client, finished) == 1
    assert _draws(alice_client, finished) == 0

    running = make_run(workload, status=ComparisonRun.Status.RUNNING)
    assert _draws(alice_client, running) == 1
    assert _draws(alice_client, running) == 1


def test_a_repricing_shows_its_new_figures_at_once(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe), created_at=MARCH)
    page = _page(alice_client, run)
    # Index Share's 36 s at $0.10 an hour, dense's 72 s; the pricing the run finished with, and no earlier one.
    assert '<td class="num">$0.001</td>' in page and '<td class="num">$0.002</td>' in page
    assert "test: a 2-core cloud VM" in page and "Every pricing of this run" not in page

    GpuPrice.objects.create(organisation=workload.organisation, device_class="cpu", per_hour="0.20",
                            effective_from=dt.date(2026, 2, 1), source="test: the price went up")
    pricing.price_run(run)

    page = _page(alice_client, run)
    assert '<td class="num">$0.002</td>' in page and '<td class="num">$0.004</td>' in page  # twice the price
    assert "test: the price went up" in page and "test: a 2-core cloud VM" not in page.split("Every pricing")[0]
    assert "Every pricing of this run" in page  # the earlier pricing beside it, drawn on every view
    assert "device $0.001" in page and "device $0.002" in page


def test_the_workloads_unit_volume_and_clock_show_at_once(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    ComparisonRun.objects.filter(pk=run.pk).update(priced_at=MARCH)
    page = _page(alice_client, run)
    assert "Per contract" in page and "At about 40 contracts a month" in page
    assert "Priced 1 Mar 2026 09:30." in page

    workload.kind = workload.Kind.SUPPORT
    workload.save()
    page = _page(alice_client, run)
    assert "Per contract" not in page and "Per ticket" in page and "At about 40 tickets a month" in page

    workload.expected_volume = 400
    workload.save()
    assert "At about 400 tickets a month" in _page(alice_client, run)

    workload.organisation.timezone = "Europe/Berlin"
    workload.organisation.save()
    assert "Priced 1 Mar 2026 10:30." in _page(alice_client, run)


def test_a_run_that_finishes_shows_its_results_at_once(alice_client, workload, probe, prices):
    run = make_run(workload, status=ComparisonRun.Status.RUNNING)
    assert 'id="strategies"' not in _page(alice_client, run)

    store_report(run, standard_report(probe))  # as the worker stores it, then marks the run succeeded
    ComparisonRun.objects.filter(pk=run.pk).update(status=ComparisonRun.Status.SUCCEEDED)
    pricing.price_run(run)
    page = _page(alice_client, run)
    assert 'id="strategies"' in page and "What is the notice period?" in page and "$0.001" in page


def test_the_kept_parts_hold_nothing_of_the_viewer(alice_client, vera, workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    page = _page(alice_client, run)  # an admin's view draws the parts
    assert "Re-price with the price book" in page and "Delete this run" in page

    viewer = Client()
    viewer.force_login(vera)
    seen = _page(viewer, run)  # a viewer's reads them back
    assert "$0.001" in seen and "Re-price with the price book" not in seen and "Delete this run" not in seen

    parts = run_parts.parts(run)
    assert not any("csrfmiddlewaretoken" in parts[name] for name in run_parts.PARTS)
    assert not any("alice" in parts[name] for name in run_parts.PARTS)  # whoever drew them
