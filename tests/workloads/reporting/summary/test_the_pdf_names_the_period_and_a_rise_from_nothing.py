"""The PDF's changes name the period they are against (a monthly run may be compared with a quarter), and a
cost that rose from $0 reads "from $0", not "—", which means the previous period did not measure it."""

import datetime as dt

from tests.workloads.reporting.summary.conftest import DEVICE
from workloads.comparisons import pricing
from workloads.models import GpuPrice
from workloads.reporting.summary.render import render_html


def test_a_rise_from_a_free_device_reads_from_zero_against_the_named_period(acme, last_quarter, this_quarter):
    # Q4 on an H200 the business owned (priced at nothing), Q1 on a rented one.
    for price, start in (("0", dt.date(2026, 10, 1)), ("3.50", dt.date(2027, 1, 1))):
        GpuPrice.objects.create(organisation=acme, device_class="H200", per_hour=price, effective_from=start,
                                source=f"test: {DEVICE} from {start}")
    pricing.price_run(last_quarter)
    pricing.price_run(this_quarter)
    this_quarter.refresh_from_db()

    page = " ".join(render_html(this_quarter).split())

    assert '<h2 id="changed">What changed since 2026-Q4</h2>' in page
    assert "costs more than in 2026-Q4, when it cost nothing" in page  # the alert
    assert '<td class="num">from $0</td>' in page
    assert '"from $0": its device time was priced at nothing then' in page
