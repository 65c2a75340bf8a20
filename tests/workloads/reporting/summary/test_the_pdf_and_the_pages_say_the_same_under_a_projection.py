"""The PDF's projection chart and the planning page's chart say the same notes, in the same words, for one
projection."""

import pytest

from workloads.comparisons.planning import LENGTHS, Projection
from workloads.reporting import page_charts
from workloads.reporting.chart_notes import FLOPS_INSTEAD, NO_API_DOLLARS, NO_DEVICE_DOLLARS, ZERO_DOLLARS
from workloads.reporting.summary import pdf_charts

RISING = {"chunked": [n / 1e6 for n in LENGTHS]}
FREE = {"chunked": [0.0] * len(LENGTHS)}


@pytest.mark.parametrize("device,api,notes", [
    (None, None, [FLOPS_INSTEAD]),
    (RISING, None, [NO_API_DOLLARS]),
    (None, FREE, [NO_DEVICE_DOLLARS, ZERO_DOLLARS]),
    (RISING, RISING, []),
])
def test_both_charts_give_the_same_notes(device, api, notes):
    projection = Projection(LENGTHS, RISING, device, api, None, "", [])
    assert list(page_charts.planning(projection).notes) == notes
    assert list(pdf_charts.projection(projection).notes) == notes
