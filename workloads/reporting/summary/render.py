"""A run's summary as PDF bytes: the Django template, laid out on A4 by WeasyPrint.

Everything the page needs is local: the stylesheet sits next to the template and the charts are
data URIs, so the fetcher allows file: and data: URLs only and never reaches the network.
"""

from __future__ import annotations

import zoneinfo
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from workloads.models import ComparisonRun
from workloads.reporting.summary.content import gather

TEMPLATE = "workloads/summary/summary.html"
TEMPLATE_DIR = Path(settings.BASE_DIR) / "templates" / "workloads" / "summary"


def render_html(run: ComparisonRun) -> str:
    # Times on the clock the run was dated by (its organisation's zone when it was queued), as its day is.
    with timezone.override(zoneinfo.ZoneInfo(run.time_zone)):
        return render_to_string(TEMPLATE, {"c": gather(run)})


def render_summary(run: ComparisonRun) -> tuple[bytes, int]:
    """The PDF and its page count."""
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    fetcher = URLFetcher(allowed_protocols=("file", "data"), fail_on_errors=True)
    document = HTML(string=render_html(run), base_url=TEMPLATE_DIR.as_uri() + "/", url_fetcher=fetcher).render()
    return document.write_pdf(), len(document.pages)
