"""The three addresses benchmarks/page_load.py loads take the queries they take now, and no more: on a 2-core machine
each query is about half a millisecond of the web process's CPU (most of it Django building the SQL), and the pages
meet their latency target under load only with their CPU where it is. A view that needs another query says so here.

A logged-in request's own: its session, its user, and the user's membership with its organisation in one query
(workloads.middleware.OrganisationTimeZone); an API read adds the address's failed sign-ins (django-axes) and its
token with its user, and writes the token's last use at most once a minute."""

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report
from tests.workloads.pages.query_counts import queries
from workloads.models import ApiToken

LOGGED_IN = 3
# Before benchmarks/page_cpu.py's round of cuts (2026-12-05): 13, 25 and 9; the workload page's 20 then, 18 since it
# hands the preflight the documents and probes it lists.
EXPECTED = {"dashboard": LOGGED_IN + 8, "workload page": LOGGED_IN + 15, "API runs list": LOGGED_IN + 4}


@pytest.fixture
def history(workload, probe, prices):
    return [make_run(workload, standard_report(probe)) for _ in range(20)]


def test_the_loaded_addresses_keep_their_query_counts(client, alice, workload, history):
    client.force_login(alice)
    bearer = f"Bearer {ApiToken.issue(alice)}"
    taken = {
        "dashboard": queries(client, reverse("dashboard")),
        "workload page": queries(client, reverse("workload_detail", args=[workload.pk])),
        # As page_load.py's clients send it: the session cookie beside the token.
        "API runs list": queries(client, f"/api/workloads/{workload.pk}/runs", Authorization=bearer),
    }

    assert {name: len(sql) for name, sql in taken.items()} == EXPECTED, "\n\n".join(
        f"{name}:\n" + "\n".join(q[:160] for q in sql) for name, sql in taken.items())
