"""Migration 0037 moves each file's bytes, stored in 1 MiB rows until then, into one original in the file storage, and
back when migrated back: an upload queued across the upgrade is extracted as any other."""

import os

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from workloads.documents.upload_storage import read_file
from workloads.models import UploadFile

BEFORE = ("workloads", "0036_organisations_have_quotas")
DATA = os.urandom(2 * 2**20 + 123)  # two rows and a bit


def _apps_at(migration):
    return MigrationLoader(connection).project_state(migration).apps


@pytest.mark.django_db(transaction=True)
def test_the_chunks_become_one_original_and_back(settings):
    call_command("migrate", *BEFORE, verbosity=0)
    try:
        apps = _apps_at(BEFORE)
        organisation = apps.get_model("workloads", "Organisation").objects.create(name="Acme")
        workload = apps.get_model("workloads", "Workload").objects.create(
            organisation=organisation, name="Contracts", kind="contracts", expected_volume=1, target_model="m")
        upload = apps.get_model("workloads", "Upload").objects.create(workload=workload)
        old = apps.get_model("workloads", "UploadFile").objects.create(upload=upload, name="../terms.txt",
                                                                         size_bytes=len(DATA))
        for index, start in enumerate(range(0, len(DATA), 2**20)):
            apps.get_model("workloads", "UploadFileChunk").objects.create(file=old, index=index,
                                                                          data=DATA[start:start + 2**20])

        call_command("migrate", "workloads", verbosity=0)
        stored = UploadFile.objects.get(pk=old.pk)
        assert stored.original.name.startswith(f"uploads/{upload.pk}/") and ".." not in stored.original.name
        assert read_file(stored) == DATA and stored.size_bytes == len(DATA) and stored.purged_at is None

        call_command("migrate", *BEFORE, verbosity=0)
        chunks = _apps_at(BEFORE).get_model("workloads", "UploadFileChunk").objects.filter(file_id=old.pk)
        assert b"".join(bytes(data) for data in chunks.order_by("index").values_list("data", flat=True)) == DATA
        assert not any(path.is_file() for path in settings.MEDIA_ROOT.rglob("*"))
    finally:
        call_command("migrate", "workloads", verbosity=0)
