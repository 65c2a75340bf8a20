"""Before anything runs, the workload page and the comparison form say which strategies fit the model's positions,
from the documents' stored token counts."""

import re

import pytest
from django.urls import reverse

from engine.core.call_plan import call_plan, estimated_chunks, positions_needed
from engine.core.run_settings import DEFAULT_STRATEGIES, STRATEGIES, full_mode, name
from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import html


def fit_rows(page: str) -> dict[str, str]:
    """Each strategy's row of the fit table: its name, then "fits" or "will refuse"."""
    table = re.search(r'<table class="fit">(.*?)</table>', page).group(1)
    rows = re.findall(r'<tr class="(fits|refuses)"> <th scope="row">([^<]+?)(?: <small>|</th>)', table)
    return {strategy: verdict for verdict, strategy in rows}


def _needed(strategy: str, tokens: list[int], chunk_tokens: int = 1024, overlap: int = 64) -> int:
    return positions_needed(call_plan(strategy, tokens, estimated_chunks(tokens, chunk_tokens, overlap)))


@pytest.mark.parametrize("page", ["workload_detail", "run_create"])
def test_it_says_every_full_context_strategy_will_refuse_documents_past_the_positions(alice_client, too_long, probe,
                                                                                      page):
    text = html(alice_client.get(reverse(page, args=[too_long.pk])))

    assert fit_rows(text) == {name(s): "refuses" if full_mode(s) else "fits" for s in STRATEGIES}
    assert f"{MODEL} holds 8,192 positions; the 2 documents hold 24,146 tokens" in text
    # Both documents, a "=== name ===" line each, the question and template, and the answer.
    assert "about 24,274" in text and _needed("full_dense", [9_597, 14_549]) == 24_274
    chosen = ", ".join(name(s) for s in STRATEGIES if s in DEFAULT_STRATEGIES and full_mode(s))
    assert (f"Every full-context strategy chosen ({chosen}) would refuse: the "
            f"documents need about 24,274 positions and {MODEL} holds 8,192") in text


def test_it_says_every_strategy_fits_documents_within_the_positions(alice_client, workload, document, probe):
    text = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert set(fit_rows(text).values()) == {"fits"}
    assert "would refuse" not in text


def test_chunked_refuses_when_its_reduce_call_cannot_hold_an_answer_per_chunk():
    # 300 chunks of 1,024 tokens: 300 answer lines of 28 tokens outgrow 8,192 positions.
    assert _needed("chunked", [300 * 960 + 64]) == 80 + 300 * 28 + 24
    assert _needed("chunked", [500]) == 500 + 80 + 24  # one chunk, as long as the document
