"""An upload may replace the documents of the names it brings (a new version of a contract, a codebase sent
again): the document keeps its address and takes the new text, and the token limit counts the new text instead
of the old. Without asking, a taken name is skipped as before."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from workloads import tasks
from workloads.documents.intake import store_upload
from workloads.models import Document

OLD = "The notice period is 30 days.\n"
NEW = "The notice period is 90 days, given in writing to the registered office.\n"
NAME_TAKEN = "skipped: a document with this name is already in the workload"


def _extract(workload, alice, files: dict[str, str], replace: bool = False):
    upload = store_upload(workload, alice, [SimpleUploadedFile(name, text.encode()) for name, text in files.items()],
                          replace_same_names=replace)
    tasks.extract_upload(upload.pk)
    upload.refresh_from_db()
    return upload


def _tokens(workload, text: str) -> int:
    return len(tasks._tokenizer(workload.target_model)(text)["input_ids"])


def test_a_file_of_a_taken_name_replaces_that_documents_text_when_asked(workload, alice):
    _extract(workload, alice, {"terms.txt": OLD, "annex.txt": "Annex A: prices.\n"})
    terms = Document.objects.get(name="terms.txt")

    refused = _extract(workload, alice, {"terms.txt": NEW})
    assert [(item.kept, item.detail) for item in refused.items.all()] == [(False, NAME_TAKEN)]
    assert Document.objects.get(pk=terms.pk).text == OLD

    upload = _extract(workload, alice, {"terms.txt": NEW, "schedule.txt": "Deliveries on Mondays.\n"}, replace=True)

    replaced = Document.objects.get(pk=terms.pk)
    assert (replaced.text, replaced.tokens, replaced.lines) == (NEW, _tokens(workload, NEW), 1)
    assert replaced.origin.upload == upload
    assert sorted(Document.objects.values_list("name", flat=True)) == ["annex.txt", "schedule.txt", "terms.txt"]
    assert [(item.name, item.kept, item.detail, item.document_id) for item in upload.items.all()] == [
        ("terms.txt", True, "text; replaced the document of this name", terms.pk),
        ("schedule.txt", True, "text", Document.objects.get(name="schedule.txt").pk)]


def test_a_replacement_counts_its_tokens_instead_of_the_old_ones(workload, alice):
    _extract(workload, alice, {"terms.txt": OLD})
    old, new = _tokens(workload, OLD), _tokens(workload, NEW)
    longer = NEW * 3

    # Room for the new text only once the old text's tokens are freed; not for three times as much.
    with override_settings(WORKLOAD_MAX_TOKENS=new + 2):
        assert new + old > new + 2
        kept = _extract(workload, alice, {"terms.txt": NEW}, replace=True)
        too_long = _extract(workload, alice, {"terms.txt": longer}, replace=True)

    assert kept.items.get().kept
    [item] = too_long.items.all()
    assert not item.kept and item.detail.endswith(f" tokens would pass the workload's limit of {new + 2:,}")
    assert Document.objects.get().text == NEW


def test_one_upload_replaces_a_name_once(workload, alice):
    _extract(workload, alice, {"terms.txt": OLD})
    upload = store_upload(workload, alice, [SimpleUploadedFile("terms.txt", NEW.encode()),
                                            SimpleUploadedFile("terms.txt", b"A third text.\n")],
                          replace_same_names=True)
    tasks.extract_upload(upload.pk)

    assert [(item.kept, item.detail.rsplit("; ", 1)[-1]) for item in upload.items.all()] == [
        (True, "replaced the document of this name"), (False, "skipped: an earlier file of this upload has this name")]
    assert Document.objects.get().text == NEW


def test_an_upload_finishing_last_does_not_put_back_an_older_version(workload, alice):
    _extract(workload, alice, {"terms.txt": OLD})
    sent = [store_upload(workload, alice, [SimpleUploadedFile("terms.txt", text.encode())], replace_same_names=True)
            for text in ("Version 2.\n", "Version 3.\n")]

    for upload in reversed(sent):  # the later one is extracted first
        tasks.extract_upload(upload.pk)

    assert Document.objects.get().text == "Version 3.\n"
    [item] = sent[0].items.all()
    assert (item.kept, item.detail) == (
        False, "skipped: the document of this name already has a newer text, from an upload sent after this one")
