"""Re-pricing changes every figure a run reports, so only an admin may ask for it, on a page or with a token."""

from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import ApiToken


def test_a_member_may_not_reprice_a_run(client, workload, probe, prices, bob):
    run = make_run(workload, standard_report(probe))
    client.force_login(bob)

    page = client.post(reverse("run_reprice", args=[run.pk]))
    api = client.post(f"/api/runs/{run.pk}/reprice", headers={"Authorization": f"Bearer {ApiToken.issue(bob)}"})

    assert page.status_code == 403
    assert api.status_code == 403 and "only admins may do this" in api.json()["detail"]
    assert run.pricings.count() == 1
    assert "Re-price with the price book" not in client.get(reverse("run_detail", args=[run.pk])).content.decode()


def test_an_admin_may(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe))

    assert alice_client.post(reverse("run_reprice", args=[run.pk])).status_code == 302
    assert run.pricings.count() == 2
