"""An upload's text files are read with the legacy encodings of the organisation's region (its time zone), on the
real database and through the extraction task: the same Lithuanian cp1257 bytes read as written for an organisation
in Vilnius, and as cp1250 for one on UTC."""

from django.core.files.uploadedfile import SimpleUploadedFile

from benchmarks.encoding_corpus import FRENCH, TEXTS
from workloads.documents.intake import store_upload
from workloads.models import Document
from workloads.tasks import extract_upload


def _upload(workload, user, name: str, data: bytes) -> tuple[Document, str]:
    upload = store_upload(workload, user, [SimpleUploadedFile(name, data)])
    extract_upload(upload.pk)
    [item] = upload.items.all()
    return Document.objects.get(workload=workload, name=name), item.detail


def test_french_in_cp1252_is_stored_as_written(workload, alice):
    assert workload.organisation.timezone == "UTC"  # the default: Western European encodings

    document, detail = _upload(workload, alice, "contrat.txt", FRENCH.encode("cp1252"))

    assert (document.text, detail) == (FRENCH, "text (cp1252)")


def test_the_organisations_time_zone_names_its_region(workload, alice):
    lithuanian = TEXTS["Lithuanian"]
    document, detail = _upload(workload, alice, "utc.txt", lithuanian.encode("cp1257"))
    assert document.text != lithuanian and detail == "text (cp1250)"

    workload.organisation.timezone = "Europe/Vilnius"
    workload.organisation.save()
    document, detail = _upload(workload, alice, "vilnius.txt", lithuanian.encode("cp1257"))

    assert (document.text, detail) == (lithuanian, "text (cp1257)")
