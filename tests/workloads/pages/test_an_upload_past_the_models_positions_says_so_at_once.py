"""An upload that pushes a workload past its model's positions says so on the upload page, at once: it names an
offered model that holds the documents and the strategies that still work within the workload's own model."""

from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from workloads import tasks
from workloads.documents.intake import store_upload
from workloads.models import Upload

GPL = (Path(__file__).resolve().parents[3] / "samples" / "contracts" / "gpl-3.0.txt").read_bytes()


def _extracted(workload, alice, *files: tuple[str, bytes]) -> Upload:
    upload = store_upload(workload, alice, [SimpleUploadedFile(name, data) for name, data in files])
    tasks.extract_upload(upload.pk)  # the real extraction, here and now
    upload.refresh_from_db()
    assert upload.status == Upload.Status.DONE
    return upload


def test_an_upload_longer_than_smollm2s_positions_names_the_model_that_fits(alice_client, alice, workload):
    assert workload.target_model == "SmolLM2-135M-Instruct"
    upload = _extracted(workload, alice, ("gpl.txt", GPL), ("gpl-again.txt", GPL))
    assert sum(workload.documents.values_list("tokens", flat=True)) > 8192

    page = alice_client.get(reverse("upload_detail", args=[upload.pk])).content.decode()
    assert "data-outgrown" in page
    assert "SmolLM2-135M-Instruct holds 8,192: every whole-document strategy would refuse" in page
    assert "A model that fits: Qwen2.5-Coder-0.5B-Instruct (32,768 positions)" in page
    assert "still work within SmolLM2-135M-Instruct: Ask every chunk, Search the chunks" in page


def test_an_upload_that_fits_says_nothing_of_positions(alice_client, alice, workload):
    upload = _extracted(workload, alice, ("memo.txt", b"The monthly service fee is $4,500.\n"))
    page = alice_client.get(reverse("upload_detail", args=[upload.pk])).content.decode()
    assert "data-outgrown" not in page and "would refuse" not in page
