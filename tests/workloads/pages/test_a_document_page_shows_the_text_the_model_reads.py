"""A document's page shows what was read from the file, which every strategy is given, and how it was read;
the whole text downloads as a UTF-8 file. Viewers read it; members may delete the document there."""

from django.urls import reverse

from workloads.models import Document, Upload, UploadItem
from workloads.views.document_pages import SHOWN_CHARACTERS

from .conftest import html


def test_a_viewer_reads_the_text_and_how_it_was_read(client, vera, workload, alice):
    document = Document.objects.create(workload=workload, name="lease.docx", text="Rent: <b>900</b> a month.\n",
                                       tokens=9, lines=1, size_bytes=12_000)
    upload = Upload.objects.create(workload=workload, created_by=alice, status=Upload.Status.DONE)
    UploadItem.objects.create(upload=upload, name="lease.docx", kept=True, tokens=9, document=document,
                              detail="DOCX, 1 paragraph, 1 note, tracked changes accepted")
    client.force_login(vera)

    page = html(client.get(reverse("document_detail", args=[workload.pk, document.pk])))

    assert "<h1>lease.docx</h1>" in page
    assert "DOCX, 1 paragraph, 1 note, tracked changes accepted, from the" in page
    assert reverse("upload_detail", args=[upload.pk]) in page
    assert "9 under SmolLM2-135M-Instruct" in page
    assert "Rent: &lt;b&gt;900&lt;/b&gt; a month." in page  # the text, escaped
    assert reverse("document_text", args=[workload.pk, document.pk]) in page
    assert reverse("document_delete", args=[workload.pk, document.pk]) not in page  # a viewer deletes nothing


def test_a_replacing_upload_is_said_to_have_replaced_the_earlier_text(alice_client, workload, alice):
    document = Document.objects.create(workload=workload, name="terms.txt", text="Notice: 90 days.\n", tokens=6,
                                       lines=1, size_bytes=17)
    upload = Upload.objects.create(workload=workload, created_by=alice, status=Upload.Status.DONE,
                                   replace_same_names=True)
    UploadItem.objects.create(upload=upload, name="terms.txt", kept=True, tokens=6, document=document,
                              detail="text" + UploadItem.REPLACED_NOTE)

    page = html(alice_client.get(reverse("document_detail", args=[workload.pk, document.pk])))

    assert "Read as</dt><dd>text, from the" in page and "replaced the document of this name" not in page
    assert ", which replaced the earlier text of this name</dd>" in page


def test_the_workload_page_links_each_document_and_a_member_may_delete_it_from_its_page(client, bob, workload,
                                                                                      document):
    client.force_login(bob)
    url = reverse("document_detail", args=[workload.pk, document.pk])

    assert url in html(client.get(reverse("workload_detail", args=[workload.pk])))
    assert reverse("document_delete", args=[workload.pk, document.pk]) in html(client.get(url))


def test_a_long_text_is_cut_on_the_page_and_whole_in_the_download(alice_client, workload):
    text = "x" * SHOWN_CHARACTERS + "THE END"
    document = Document.objects.create(workload=workload, name="long.txt", text=text, tokens=1, lines=1,
                                       size_bytes=len(text))

    page = html(alice_client.get(reverse("document_detail", args=[workload.pk, document.pk])))
    download = alice_client.get(reverse("document_text", args=[workload.pk, document.pk]))

    assert "The first 100,000 characters of 100,007:" in page
    assert "THE END" not in page
    assert download.content.decode() == text


def test_the_download_is_a_utf8_text_file_named_after_the_document(alice_client, workload):
    document = Document.objects.create(workload=workload, name='archive/Miete "Süd" 2026.docx', text="Miete: 900 €",
                                       tokens=5, lines=1, size_bytes=10)

    response = alice_client.get(reverse("document_text", args=[workload.pk, document.pk]))

    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == "attachment; filename*=utf-8''Miete%20%22S%C3%BCd%22%202026.txt"
    assert response.content.decode() == "Miete: 900 €"


def test_a_document_of_another_workload_is_not_found_under_this_one(alice_client, workload, acme):
    other = workload.__class__.objects.create(organisation=acme, name="Leases", kind=workload.kind,
                                              target_model=workload.target_model)
    document = Document.objects.create(workload=other, name="lease.txt", text="Rent", tokens=1, lines=1, size_bytes=4)

    for name in ("document_detail", "document_text"):
        assert alice_client.get(reverse(name, args=[workload.pk, document.pk])).status_code == 404
