"""A run queued at 22:30 on 31 March in New York is a first-quarter run everywhere: its period, the prices it is
charged at, its page and its PDF all use the organisation's day, not the server's (UTC, already 1 April)."""

import datetime as dt

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report  # noqa: F401
from workloads.models import GpuPrice
from workloads.reporting.summary.render import render_html

EVENING_OF_31_MARCH = dt.datetime(2026, 4, 1, 2, 30, tzinfo=dt.UTC)  # 22:30 EDT in New York


@pytest.fixture
def new_york_run(workload, probe, prices, acme):
    acme.timezone = "America/New_York"
    acme.save()
    GpuPrice.objects.create(organisation=acme, device_class="cpu", per_hour="0.20", effective_from=dt.date(2026, 4, 1),
                            source="test: the April price")
    return make_run(workload, standard_report(probe), created_at=EVENING_OF_31_MARCH)


def test_it_is_priced_with_the_entries_in_force_on_its_local_day(new_york_run, prices):
    assert new_york_run.period == "2026-Q1"
    assert new_york_run.day == dt.date(2026, 3, 31)
    assert new_york_run.gpu_price == prices["cpu"]  # March's $0.10/h, not April's $0.20/h


def test_its_page_and_its_pdf_show_the_organisations_time(alice_client, new_york_run):
    page = alice_client.get(reverse("run_detail", args=[new_york_run.pk])).content.decode()
    assert "Queued 31 Mar 2026 22:30" in page
    assert "Times are in America/New_York" in page

    pdf_html = render_html(new_york_run)
    assert f"Run {new_york_run.pk} of 31 March 2026" in pdf_html
    assert "The entries in force on the run's date, 31 March 2026" in pdf_html


def test_a_later_change_of_time_zone_leaves_the_run_on_its_day_and_its_prices(alice_client, new_york_run, prices):
    organisation = new_york_run.workload.organisation
    organisation.timezone = "Pacific/Kiritimati"  # already 1 April there, at any hour of 31 March in New York
    organisation.save()
    new_york_run.refresh_from_db()

    assert new_york_run.day == dt.date(2026, 3, 31) and new_york_run.gpu_price == prices["cpu"]
    pdf_html = render_html(new_york_run)
    assert f"Run {new_york_run.pk} of 31 March 2026" in pdf_html
    assert "The entries in force on the run's date, 31 March 2026" in pdf_html
    # The projection prices the device as the run was priced: with March's entry, not April's.
    assert "/h for cpu (from 2026-01-01" in pdf_html and "/h for cpu (from 2026-04-01" not in pdf_html
