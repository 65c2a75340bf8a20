"""The dashboard shows every workload's latest comparison in a fixed number of queries: a busy organisation's
dashboard does not query once per workload."""

from django.urls import reverse

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import make_run, standard_report
from tests.workloads.pages.query_counts import grown, queries
from workloads.models import Probe, Workload


def _compared_twice(acme, name: str) -> Workload:
    workload = Workload.objects.create(organisation=acme, name=name, kind=Workload.Kind.CONTRACTS, expected_volume=10,
                                       target_model=MODEL)
    probe = Probe.objects.create(workload=workload, question="What is the notice period?", answer="90 days")
    for _ in range(2):
        make_run(workload, standard_report(probe))
    return workload


def test_the_dashboard_takes_as_many_queries_for_five_workloads_as_for_one(alice_client, acme, prices):
    _compared_twice(acme, "Supplier contracts")
    one = queries(alice_client, reverse("dashboard"))
    for i in range(4):
        _compared_twice(acme, f"Workload {i}")
    five = queries(alice_client, reverse("dashboard"))

    assert len(five) == len(one), grown(one, five)


def test_the_dashboard_still_shows_each_workloads_latest_comparison(alice_client, acme, prices):
    workloads = [_compared_twice(acme, f"Workload {i}") for i in range(3)]

    page = alice_client.get(reverse("dashboard")).content.decode()

    for workload in workloads:
        compared, previous = workload.runs.all()[:2]
        assert f"Latest comparison: <a href=\"/runs/{compared.pk}/\">run {compared.pk}</a>" in page
        assert f"compared with <a href=\"/runs/{previous.pk}/\">run {previous.pk}</a>" in page
