"""Uploads a day and stored bytes are bounded per organisation: an upload past either is refused, on the page and
in the API, before any of its bytes are stored, and an upload refused saves nothing."""

import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from tests.workloads.quotas.conftest import page_text
from workloads.documents.intake import store_upload
from workloads.models import Document, Upload, UploadFile

DAY_FULL = ("Acme's quota of uploads a day is 2: 2 were made today (UTC); the count starts again at midnight, or ask "
            "the site's operator for a larger quota")


def _file(name: str = "contract.txt", size: int = 100) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, b"x" * size, content_type="text/plain")


def _nothing_more_saved(uploads: int, files: int) -> None:
    assert (Upload.objects.count(), UploadFile.objects.count()) == (uploads, files)
    stored = [path for path in Path(settings.MEDIA_ROOT).rglob("*") if path.is_file()]
    assert len(stored) == files  # no original of a refused upload left in the storage


def test_an_upload_past_the_uploads_of_the_day_is_refused_until_midnight(as_bob, bob, workload, settings):
    settings.QUOTA_UPLOADS_PER_DAY = 2
    for name in ("a.txt", "b.txt"):
        store_upload(workload, bob, [_file(name)])

    refused = as_bob.upload(f"/workloads/{workload.pk}/documents", [_file("c.txt")])

    assert refused.status_code == 429
    assert refused.json() == {"detail": DAY_FULL, "quota": "uploads_per_day", "used": 2, "limit": 2, "adding": 1}
    now = timezone.now()
    midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time.min, tzinfo=dt.timezone.utc)
    assert abs(int(refused["Retry-After"]) - (midnight - now).total_seconds()) < 5
    _nothing_more_saved(2, 2)


def test_yesterdays_uploads_do_not_count(as_bob, bob, workload, settings):
    settings.QUOTA_UPLOADS_PER_DAY = 2
    for name in ("a.txt", "b.txt"):
        store_upload(workload, bob, [_file(name)])
    Upload.objects.update(created_at=timezone.now() - dt.timedelta(days=1))

    assert as_bob.upload(f"/workloads/{workload.pk}/documents", [_file("c.txt")]).status_code == 202


@pytest.mark.parametrize("zone, made_at, refused", [
    # 00:30 on 7 December in Tokyo, still the 6th in UTC: today's, where the organisation is.
    ("Asia/Tokyo", dt.datetime(2026, 12, 6, 15, 30, tzinfo=dt.timezone.utc), True),
    # 23:30 on 6 December in Los Angeles, already the 7th in UTC: yesterday's, where the organisation is.
    ("America/Los_Angeles", dt.datetime(2026, 12, 7, 7, 30, tzinfo=dt.timezone.utc), False),
])
def test_the_day_is_the_organisations_own(as_bob, bob, acme, workload, settings, monkeypatch, zone, made_at, refused):
    settings.QUOTA_UPLOADS_PER_DAY = 1
    acme.timezone = zone
    acme.save()
    store_upload(workload, bob, [_file("a.txt")])
    Upload.objects.update(created_at=made_at)
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 12, 7, 10, 0, tzinfo=dt.timezone.utc))

    answer = as_bob.upload(f"/workloads/{workload.pk}/documents", [_file("b.txt")])

    assert answer.status_code == (429 if refused else 202)
    if refused:
        assert f"1 was made today ({zone})" in answer.json()["detail"]


def test_an_upload_past_the_stored_bytes_is_refused_before_anything_is_stored(as_bob, bob, workload, settings):
    settings.QUOTA_STORED_BYTES = 1000
    store_upload(workload, bob, [_file("a.txt", 400)])
    Document.objects.create(workload=workload, name="a.txt", text="é" * 100, tokens=100, lines=1, size_bytes=400)

    refused = as_bob.upload(f"/workloads/{workload.pk}/documents", [_file("b.txt", 200), _file("c.txt", 201)])

    assert refused.status_code == 429 and "Retry-After" not in refused
    # 400 bytes of the file and 200 of its text: "é" is two bytes in UTF-8.
    assert refused.json() == {
        "detail": "Acme's quota of stored bytes is 1000 bytes: it stores 600 bytes of documents' text and uploaded "
                  "files, and these files would add 401 bytes; delete documents or workloads it no longer needs, or "
                  "ask the site's operator for a larger quota",
        "quota": "stored_bytes", "used": 600, "limit": 1000, "adding": 401}
    _nothing_more_saved(1, 1)
    assert as_bob.upload(f"/workloads/{workload.pk}/documents", [_file("b.txt", 400)]).status_code == 202


def test_the_upload_page_shows_the_refusal_as_the_forms_error(client, bob, workload, settings):
    settings.QUOTA_UPLOADS_PER_DAY = 2
    for name in ("a.txt", "b.txt"):
        store_upload(workload, bob, [_file(name)])
    client.force_login(bob)

    page = client.post(reverse("upload_create", args=[workload.pk]), {"files": [_file("c.txt")]})

    assert page.status_code == 400
    assert DAY_FULL in page_text(page)
    _nothing_more_saved(2, 2)


def test_the_page_refuses_past_the_stored_bytes(client, bob, workload, settings):
    settings.QUOTA_STORED_BYTES = 1024
    client.force_login(bob)

    page = client.post(reverse("upload_create", args=[workload.pk]), {"files": [_file("big.txt", 1025)]})

    assert page.status_code == 400
    assert ("Acme's quota of stored bytes is 1.0 KiB: it stores 0 bytes of documents' text and uploaded files, and "
            "these files would add 1.0 KiB") in page_text(page)
    _nothing_more_saved(0, 0)
