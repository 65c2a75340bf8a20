"""Exporting an older run again shows its own period, prices and history, not what came after it."""

import datetime as dt

import pytest

from tests.workloads.reporting.summary.conftest import make_run, standard_report
from workloads.models import ComparisonRun, GpuPrice
from workloads.reporting.summary.content import SummaryError, gather
from workloads.reporting.summary.render import render_html


def test_last_quarters_summary_ends_its_history_at_its_own_run(last_quarter, this_quarter):
    content = gather(last_quarter)

    assert content.history == [last_quarter]
    assert {r.run_id for r in content.history_results} == {last_quarter.pk}
    assert content.previous_run is None and content.alerts == []
    assert [row.previous_unit_cost for row in content.strategies] == [None] * len(content.strategies)
    assert gather(this_quarter).history == [last_quarter, this_quarter]


def test_last_quarters_projection_uses_its_own_run_and_its_own_prices(acme, last_quarter, this_quarter):
    # The H200 got dearer after last quarter's run: exporting that run again must not reprice its projection.
    GpuPrice.objects.create(organisation=acme, device_class="H200", per_hour="5.00",
                            effective_from=dt.date(2027, 1, 1), source="test: a price rise")

    old, new = gather(last_quarter).projection, gather(this_quarter).projection

    old_notes, new_notes = " ".join(old.notes), " ".join(new.notes)
    assert f"measured in run {last_quarter.pk} " in old_notes and "(from 2026-01-01, source: test: a GPU" in old_notes
    assert f"measured in run {this_quarter.pk} " in new_notes and "(from 2027-01-01, source: test: a price" in new_notes
    # Index Share took 36 s this quarter against 30 s, at $5.00 against $3.50 an hour.
    assert new.device_dollars["full_index_share"][0] > old.device_dollars["full_index_share"][0] * 5.00 / 3.50


def test_user_text_is_escaped_in_the_summary(workload, probe, prices):
    workload.name = '<script>alert("x")</script>'
    workload.save()
    run = make_run(workload, standard_report(probe, "NVIDIA H200"))

    html = render_html(run)

    assert "<script>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html


def test_only_a_succeeded_run_can_be_summarised(workload, probe, prices):
    run = make_run(workload, None, status=ComparisonRun.Status.FAILED)

    with pytest.raises(SummaryError, match=f"run {run.pk} is failed: only a succeeded run can be summarised"):
        gather(run)
