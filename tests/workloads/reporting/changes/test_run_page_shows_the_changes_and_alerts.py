"""The run page shows the changes since the previous period's run as a table, with its alerts above it."""

from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.models import ComparisonRun
from workloads.reporting import rerun_spread

from .conftest import Q3, Q4, run_at


def test_it_shows_each_strategy_then_and_now_with_the_alerts(alice_client, workload, probe, prices):
    before = make_run(workload, standard_report(probe, index_share_seconds=36, index_share_right=True),
                      created_at=Q3)
    now = make_run(workload, standard_report(probe, index_share_seconds=54, index_share_right=False),
                   created_at=Q4, units_of_work=5)

    page = html(alice_client.get(reverse("run_detail", args=[now.pk])))

    assert f'Since 2026-Q3 (<a href="{reverse("run_detail", args=[before.pk])}">run {before.pk}</a>)' in page
    assert ('<th scope="row">Whole documents (Index Share)</th> '
            '<td class="num">$0.001 → $0.0015</td> <td class="num">+$0.0005 (+50.0%)</td> '
            '<td class="num">$0.00025 → $0.0003</td> <td class="num">+$0.00005 (+20.0%)</td> '
            '<td class="num">100% → 0%</td> <td class="num">-100.0 points</td> <td>in → in</td>') in page
    assert ('<th scope="row">Ask every chunk</th> <td class="num">$0.0005 → $0.0005</td> <td class="num">$0 (+0.0%, within noise)</td> '
            '<td class="num">$0.000125 → $0.0001</td> <td class="num">-$0.000025 (-20.0%)</td> '
            '<td class="num">0% → 0%</td> <td class="num">+0.0 points</td> <td>out → out</td>') in page
    changes = page[page.index('<table class="changes">'):]
    changes = changes[:changes.index("</table>")]
    assert "Whole documents (sliding window)" not in changes and "Ask every chunk" in changes  # refused in both
    assert ('<li class="alert">Whole documents (Index Share) costs 50% more than in 2026-Q3: $0.001 → $0.0015 for '
            "the workload, $0.00025 → $0.0003 per contract, beyond the machine&#x27;s own noise (reruns of the same "
            f"work were up to {rerun_spread.MEASURED_PERCENT:g}% apart in our measurements).</li>") in page
    assert page.count('<li class="alert">') == 2  # cost up, accuracy down


def test_a_first_run_says_the_next_periods_run_will_be_compared_with_it(alice_client, workload, probe, prices):
    first = run_at(workload, probe, Q3, chunked={"seconds": 36})

    page = html(alice_client.get(reverse("run_detail", args=[first.pk])))

    assert "the next period's run will be compared with this one (2026-Q3)" in page
    assert "Since " not in page and 'class="alert"' not in page


def test_a_run_still_queued_shows_no_changes(alice_client, workload, probe, prices):
    run_at(workload, probe, Q3, chunked={"seconds": 36})
    queued = make_run(workload, status=ComparisonRun.Status.QUEUED)

    page = html(alice_client.get(reverse("run_detail", args=[queued.pk])))

    assert "Since 2026-Q3" not in page and "will be compared with this one" not in page
