"""The PDF's projection draws a price of $0 (owned hardware, a free API) on a linear axis, and says why."""

from workloads.comparisons.planning import LENGTHS, Projection
from workloads.reporting.chart_notes import ZERO_DOLLARS
from workloads.reporting.summary import pdf_charts


def _projection(api_per_question: float) -> Projection:
    rising = [n / 1e6 for n in LENGTHS]
    return Projection(LENGTHS, {}, {"chunked": rising}, {"chunked": [api_per_question] * len(LENGTHS)}, None, "", [])


def test_a_free_api_is_drawn_and_the_axis_is_said_to_be_linear():
    chart = pdf_charts.projection(_projection(0.0))

    assert chart.image is not None
    assert ZERO_DOLLARS in chart.notes


def test_priced_dollars_keep_the_logarithmic_axis_without_the_note():
    assert ZERO_DOLLARS not in pdf_charts.projection(_projection(0.002)).notes
