"""Plain names everywhere a person reads (issue 36): the strategies' identifiers (full_index_share_cached, routed,
chunked) stay in the API, the JSON and the CSV; no page's visible text and no PDF page shows one. The statistics'
names stay off the pages' recommendation and off PDF page one (tables and the appendix may name their methods)."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report
from tests.workloads.reporting.summary.conftest import DEVICE, pdf_text
from workloads.reporting.summary.render import render_summary

IDENTIFIER = re.compile(r"\b(full_[a-z_]+|[a-z_]+_cached|routed|chunked|pooled_mass)\b")


class _VisibleText(HTMLParser):
    """The text a browser shows: no tags, attributes, scripts or styles."""

    def __init__(self):
        super().__init__()
        self.parts, self._hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self._hidden += tag in ("script", "style", "template")

    def handle_endtag(self, tag):
        self._hidden -= tag in ("script", "style", "template") and self._hidden > 0

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def visible(response) -> str:
    parser = _VisibleText()
    parser.feed(response.content.decode())
    return " ".join(" ".join(parser.parts).split())


def _where(text: str) -> list[str]:
    """Each identifier in its context, for the failure message."""
    return [text[max(m.start() - 50, 0):m.end() + 20] for m in IDENTIFIER.finditer(text)]


@pytest.fixture
def measured(workload, probe, prices):
    return make_run(workload, standard_report(probe, DEVICE))


@pytest.mark.parametrize("page", ["dashboard", "workload_detail", "planning", "run_create", "run_detail",
                                  "schedule_edit"])
def test_no_page_shows_an_identifier(alice_client, measured, page):
    args = {"dashboard": [], "run_detail": [measured.pk]}.get(page, [measured.workload.pk])
    response = alice_client.get(reverse(page, args=args))
    assert response.status_code == 200
    text = visible(response)
    assert not IDENTIFIER.search(text), (page, _where(text))


def test_no_pdf_page_shows_an_identifier(measured):
    pdf, _ = render_summary(measured)
    text = pdf_text(pdf)
    assert not IDENTIFIER.search(text), _where(text)

STATISTICS = re.compile(r"McNemar|Wilson|\bF1\b|FLOP|[Tt]op-1|[Ii]ndex overlap|\bp = |p-value|pooled_mass")
MEASURED = re.compile(r'<section aria-labelledby="measured">.*?</section>', re.S)


@pytest.mark.parametrize("page", ["dashboard", "run_detail"])
def test_the_statistics_are_named_only_in_how_this_was_measured(alice_client, measured, page):
    args = {"dashboard": [], "run_detail": [measured.pk]}[page]
    response = alice_client.get(reverse(page, args=args))
    if page == "run_detail":
        assert MEASURED.search(response.content.decode()), "the run page keeps its measurement details"
    response.content = MEASURED.sub("", response.content.decode()).encode()
    text = visible(response)
    assert not STATISTICS.search(text), (page, [text[max(m.start() - 60, 0):m.end() + 20]
                                                for m in STATISTICS.finditer(text)])
