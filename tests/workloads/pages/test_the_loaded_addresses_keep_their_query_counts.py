"""The four addresses benchmarks/page_load.py loads (the run page since issue 40) take the queries they take now, and
no more: on a 2-core machine each query is about half a millisecond of the web process's CPU (most of it Django
building the SQL), and the pages meet their latency target under load only with their CPU where it is. A view that
needs another query says so here.

A logged-in page's own: its session, and its user with the membership and organisation in one join
(workloads.organisations.member_backend). An API read signs in by its token alone: the address's failed sign-ins
(django-axes) and the token with its user, and a write of the token's last use at most once a minute; the session
cookie page_load.py's clients send along is not read."""

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report
from tests.workloads.pages.query_counts import queries
from workloads.models import ApiToken

LOGGED_IN = 2
# Before benchmarks/page_cpu.py's rounds of cuts (2026-12-05): 13, 25 and 9; then 11, 18 and 7; since 2026-12-05's
# second round (one read of the user with the membership, of the workload with its schedule, of its latest succeeded
# run for the charts, durations and PDF link, of whether this period can be fired again; the dashboard's runs
# ranked in one query, its alerts from them); the dashboard's one more since issue 40 (the organisation's use of its
# quotas, every quota in one query); since the third round (2026-12-07: the workload page asks whether this period
# can be fired again only beside a firing; the run page reads a succeeded run's figures only to draw them once, takes
# its organisation from the membership and reads no strategies for a run with nothing to compare; the run page took
# 16 before). The run page's own: the run, its earlier pricings and its latest PDF summary.
EXPECTED = {"dashboard": LOGGED_IN + 7, "workload page": LOGGED_IN + 9, "run page": LOGGED_IN + 3, "API runs list": 4}


@pytest.fixture
def history(workload, probe, prices):
    return [make_run(workload, standard_report(probe)) for _ in range(20)]


def test_the_loaded_addresses_keep_their_query_counts(client, alice, workload, history):
    client.force_login(alice)
    bearer = f"Bearer {ApiToken.issue(alice)}"
    taken = {
        "dashboard": queries(client, reverse("dashboard")),
        "workload page": queries(client, reverse("workload_detail", args=[workload.pk])),
        "run page": queries(client, reverse("run_detail", args=[history[-1].pk])),
        # As page_load.py's clients send it: the session cookie beside the token.
        "API runs list": queries(client, f"/api/workloads/{workload.pk}/runs", Authorization=bearer),
    }

    assert {name: len(sql) for name, sql in taken.items()} == EXPECTED, "\n\n".join(
        f"{name}:\n" + "\n".join(q[:160] for q in sql) for name, sql in taken.items())
