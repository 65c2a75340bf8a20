"""An admin deletes one run (a botched one, say): its results and PDFs go, and the runs that compared with it
are compared with the run before it instead, their alerts worked out again. A run at work is never deleted."""

from django.urls import reverse
from django.utils import timezone

from tests.workloads.api.conftest import Api
from tests.workloads.pages.conftest import html
from workloads.models import Alert, ApiToken, ComparisonRun, StrategyResult, Summary

from .conftest import Q1, Q3, Q4, run_at


def _three_quarters(workload, probe):
    """Q3 cost as much as Q1; Q4's run was botched: twice as slow, so Q1 looks 50% cheaper than it."""
    q3 = run_at(workload, probe, Q3, chunked={"seconds": 36})
    q4 = run_at(workload, probe, Q4, chunked={"seconds": 72})
    q1 = run_at(workload, probe, Q1, chunked={"seconds": 36})
    q1.refresh_from_db()
    assert q1.previous_run == q4 and q1.changes["strategies"]["chunked"]["cost"]["percent"] == -50.0
    return q3, q4, q1


def test_deleting_a_run_compares_the_next_one_with_the_run_before(alice_client, workload, probe, prices):
    q3, q4, q1 = _three_quarters(workload, probe)
    Summary.objects.create(run=q4, status=Summary.Status.DONE, pdf=b"%PDF-1.7", pages=1, finished_at=timezone.now())
    confirm = html(alice_client.get(reverse("run_delete", args=[q4.pk])))
    assert f"Run {q1.pk}</a> ({q1.period}) is compared with it" in confirm
    assert "and its 1 PDF summary with their mails" in confirm

    page = html(alice_client.post(reverse("run_delete", args=[q4.pk]), follow=True))

    assert f"Deleted run {q4.pk} with its results and PDF summaries. Run {q1.pk} is now compared with run {q3.pk}." \
        in page
    assert not ComparisonRun.objects.filter(pk=q4.pk).exists()
    assert not StrategyResult.objects.filter(run_id=q4.pk).exists() and not Summary.objects.filter(run_id=q4.pk)
    q1.refresh_from_db()
    assert q1.previous_run == q3 and q1.changes["strategies"]["chunked"]["cost"]["percent"] == 0.0


def test_a_cost_alert_against_the_deleted_run_is_worked_out_again(alice_client, workload, probe, prices):
    q3 = run_at(workload, probe, Q3, chunked={"seconds": 36})
    q4 = run_at(workload, probe, Q4, chunked={"seconds": 18})  # botched: half the documents, say
    q1 = run_at(workload, probe, Q1, chunked={"seconds": 72})
    assert [a.kind for a in q1.alerts.all()] == [Alert.Kind.COST_UP]  # +300% against the botched run

    alice_client.post(reverse("run_delete", args=[q4.pk]))

    q1.refresh_from_db()
    alert, = q1.alerts.all()
    assert alert.previous_run == q3 and f"costs 100% more than in {q3.period}" in alert.message


def test_a_queued_or_running_run_is_not_deleted(alice_client, workload, probe, prices):
    for status in (ComparisonRun.Status.QUEUED, ComparisonRun.Status.RUNNING):
        run = ComparisonRun.objects.create(workload=workload, strategies=["chunked"], model="m", units_of_work=1,
                                           status=status)
        page = html(alice_client.post(reverse("run_delete", args=[run.pk]), follow=True))
        assert f"run {run.pk} is {status}: cancel it, or wait for it to finish, before deleting it" in page
        assert ComparisonRun.objects.filter(pk=run.pk).exists()


def test_the_api_deletes_a_finished_run_for_an_admin_only(client, alice, bob, workload, probe, prices):
    q3, q4, q1 = _three_quarters(workload, probe)
    as_bob, as_alice = Api(client, ApiToken.issue(bob)), Api(client, ApiToken.issue(alice))

    assert as_bob.delete(f"/runs/{q4.pk}").status_code == 403
    assert as_alice.delete(f"/runs/{q4.pk}").status_code == 204
    assert as_alice.get(f"/runs/{q1.pk}").json()["changes"]["strategies"]["chunked"]["cost"]["percent"] == 0.0
    assert as_alice.delete(f"/runs/{q4.pk}").status_code == 404

    queued = ComparisonRun.objects.create(workload=workload, strategies=["chunked"], model="m", units_of_work=1)
    refused = as_alice.delete(f"/runs/{queued.pk}")
    assert refused.status_code == 409 and "is queued" in refused.json()["detail"]
