"""A member queued 30 runs in 2.5 s, all accepted (issue 40): runs and sweeps queued or running at once are bounded
per organisation. A refusal names the quota, the use and the limit, and saves nothing."""

from django.urls import reverse

from tests.workloads.quotas.conftest import RUN_FORM, page_text
from workloads.comparisons.starting import start_run
from workloads.models import ComparisonRun, GroupSweep

FULL = ("Acme's quota of runs queued at once is 3: 3 comparison runs and sweeps are queued or running; wait for one "
        "to finish or cancel one, or ask the site's operator for a larger quota")


def test_a_member_queuing_thirty_runs_gets_the_quota_and_no_more(as_bob, ready, settings):
    settings.QUOTA_RUNS_QUEUED = 10

    answers = [as_bob.post(f"/workloads/{ready.pk}/runs", {"strategies": ["chunked"]}) for _ in range(30)]

    assert [a.status_code for a in answers] == [202] * 10 + [429] * 20
    assert ComparisonRun.objects.count() == 10
    assert answers[-1].json() == {
        "detail": FULL.replace("3", "10"), "quota": "runs_queued", "used": 10, "limit": 10, "adding": 1}


def test_a_refused_start_saves_nothing_not_even_the_settings_for_the_schedule(as_bob, bob, ready, settings):
    settings.QUOTA_RUNS_QUEUED = 3
    for _ in range(3):
        start_run(ready, bob, ["chunked"])

    refused = as_bob.post(f"/workloads/{ready.pk}/runs", {"strategies": ["full_dense"], "window": 128})

    assert refused.status_code == 429 and refused.json()["detail"] == FULL
    ready.refresh_from_db()
    assert ComparisonRun.objects.count() == 3
    assert ready.run_settings["strategies"] == ["chunked"] and "window" not in ready.run_settings


def test_the_page_shows_the_refusal_as_the_forms_error(client, bob, ready, settings):
    settings.QUOTA_RUNS_QUEUED = 3
    for _ in range(3):
        start_run(ready, bob, ["chunked"])
    client.force_login(bob)

    page = client.post(reverse("run_create", args=[ready.pk]), RUN_FORM)

    assert page.status_code == 400
    assert FULL in page_text(page)
    assert ComparisonRun.objects.count() == 3


def test_sweeps_take_places_as_runs_do(client, bob, ready, settings):
    settings.QUOTA_RUNS_QUEUED = 3
    client.force_login(bob)
    client.post(reverse("sweep_create", args=[ready.pk]))
    for _ in range(2):
        start_run(ready, bob, ["chunked"])

    refused = client.post(reverse("run_create", args=[ready.pk]), RUN_FORM)
    assert refused.status_code == 400 and FULL in page_text(refused)

    GroupSweep.objects.update(status=GroupSweep.Status.SUCCEEDED)
    ComparisonRun.objects.update(status=ComparisonRun.Status.SUCCEEDED)
    for _ in range(3):
        start_run(ready, bob, ["chunked"])
    page = client.post(reverse("sweep_create", args=[ready.pk]), follow=True)
    assert f"No sweep started: {FULL}." in page_text(page)
    assert GroupSweep.objects.count() == 1


def test_a_finished_or_cancelled_run_gives_its_place_back(as_bob, bob, ready, settings):
    settings.QUOTA_RUNS_QUEUED = 2
    first, second = start_run(ready, bob, ["chunked"]), start_run(ready, bob, ["chunked"])
    assert as_bob.post(f"/workloads/{ready.pk}/runs", {"strategies": ["chunked"]}).status_code == 429

    as_bob.post(f"/runs/{first.pk}/cancel")
    ComparisonRun.objects.filter(pk=second.pk).update(status=ComparisonRun.Status.SUCCEEDED)

    assert [as_bob.post(f"/workloads/{ready.pk}/runs", {"strategies": ["chunked"]}).status_code
            for _ in range(3)] == [202, 202, 429]


def test_retrying_a_failed_run_past_the_quota_is_refused_and_leaves_it_failed(as_bob, bob, ready, settings):
    settings.QUOTA_RUNS_QUEUED = 3
    failed = start_run(ready, bob, ["chunked"])
    ComparisonRun.objects.filter(pk=failed.pk).update(status=ComparisonRun.Status.FAILED, error="out of memory")
    for _ in range(3):
        start_run(ready, bob, ["chunked"])

    refused = as_bob.post(f"/runs/{failed.pk}/retry")

    assert refused.status_code == 429
    assert refused.json() == {"detail": FULL, "quota": "runs_queued", "used": 3, "limit": 3, "adding": 1}
    failed.refresh_from_db()
    assert (failed.status, failed.error) == ("failed", "out of memory")


def test_the_schema_documents_the_quotas_429_where_a_request_takes_a_place(client, db):
    schema = client.get("/api/openapi.json").json()

    for path in ("/api/workloads/{workload_id}/runs", "/api/runs/{run_id}/retry",
                 "/api/workloads/{workload_id}/documents"):
        refusal = schema["paths"][path]["post"]["responses"]["429"]["content"]["application/json"]["schema"]
        assert refusal == {"$ref": "#/components/schemas/QuotaOut"}, path
    assert set(schema["components"]["schemas"]["QuotaOut"]["properties"]) == {
        "detail", "quota", "used", "limit", "adding"}
