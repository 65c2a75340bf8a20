"""The PDF's page one, the planning page, the run page and the dashboard state one recommendation, in the same
words: the one decision function's (they contradicted each other when each worded its own)."""

from django.urls import reverse
from django.utils.html import escape

from engine.core import run_settings
from tests.workloads.pages.conftest import html
from tests.workloads.reporting.summary.test_the_pdf_answers_the_managers_question import _page_text
from workloads.reporting.recommendation import recommendation
from workloads.reporting.summary.render import render_summary


def test_the_pdf_and_the_planning_page_name_the_same_strategy_at_the_workloads_size(alice_client, this_quarter):
    chosen = recommendation(this_quarter)
    named = run_settings.name(chosen.recommended)

    pdf, _ = render_summary(this_quarter)
    page_one = _page_text(pdf, 0)
    planning = html(alice_client.get(reverse("planning", args=[this_quarter.workload.pk])))

    assert chosen.sentence.startswith(f"Recommended: {named}, ")
    assert chosen.sentence in page_one
    assert f'<p class="sentence">{escape(chosen.sentence)}</p>' in planning
    for page in ("run_detail", "dashboard"):
        args = [this_quarter.pk] if page == "run_detail" else []
        assert escape(chosen.sentence) in html(alice_client.get(reverse(page, args=args)))
