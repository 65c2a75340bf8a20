"""The operator's default quotas come from the settings; an organisation's own, set in the Django admin, replaces
them, smaller or larger, and empty means the default again."""

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from workloads.models import ComparisonRun


def _queue(as_bob, workload, n: int) -> list[int]:
    return [as_bob.post(f"/workloads/{workload.pk}/runs", {"strategies": ["chunked"]}).status_code for _ in range(n)]


def test_an_organisations_own_quota_beats_the_default_either_way(as_bob, acme, ready, settings):
    settings.QUOTA_RUNS_QUEUED = 2
    acme.quota_runs_queued = 3
    acme.save()
    assert _queue(as_bob, ready, 4) == [202, 202, 202, 429]

    acme.quota_runs_queued = 1
    acme.save()
    ComparisonRun.objects.all().delete()
    assert _queue(as_bob, ready, 2) == [202, 429]

    acme.quota_runs_queued = None
    acme.save()
    assert _queue(as_bob, ready, 2) == [202, 429]
    assert as_bob.post(f"/workloads/{ready.pk}/runs", {}).json()["limit"] == 2


def test_a_quota_of_zero_refuses_every_upload(as_bob, acme, workload):
    acme.quota_uploads_per_day = 0
    acme.save()

    refused = as_bob.upload(f"/workloads/{workload.pk}/documents", [SimpleUploadedFile("a.txt", b"text")])

    assert refused.status_code == 429 and refused.json()["limit"] == 0


def test_the_operator_sets_the_quotas_in_the_admin(client, acme):
    client.force_login(User.objects.create_superuser("operator", "ops@example.com", "not used"))
    form = {"name": "Acme", "timezone": "UTC", "summary_recipients": "", "endpoint_run_cap": "",
            "endpoint_month_cap": "", "quota_runs_queued": "25", "quota_uploads_per_day": "",
            "quota_stored_bytes": str(10 * 2**30)}

    saved = client.post(reverse("admin:workloads_organisation_change", args=[acme.pk]), form)

    assert saved.status_code == 302
    acme.refresh_from_db()
    assert (acme.quota_runs_queued, acme.quota_uploads_per_day, acme.quota_stored_bytes) == (25, None, 10 * 2**30)


def test_the_organisations_own_admins_cannot_set_them(alice_client, acme):
    page = alice_client.get(reverse("organisation_edit")).content.decode()
    assert "quota" not in page

    alice_client.post(reverse("organisation_edit"), {"timezone": "UTC", "quota_runs_queued": "1000"})

    acme.refresh_from_db()
    assert acme.quota_runs_queued is None
