"""Charlie (Globex) gets 404 for every Acme object, exactly as for an id that does not exist."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from workloads.models import ComparisonRun, Probe, Upload

from ..conftest import MODEL

GETS = ["/workloads/{w}", "/workloads/{w}/documents", "/workloads/{w}/documents/{d}/text", "/workloads/{w}/probes",
        "/workloads/{w}/runs", "/workloads/{w}/runs.csv", "/runs/{r}", "/uploads/{u}"]
POSTS = [("/workloads/{w}/probes", {"question": "Q?", "answer": "A"}), ("/workloads/{w}/runs", {}),
         ("/runs/{r}/cancel", None), ("/runs/{r}/reprice", None)]


@pytest.fixture
def ids(workload, queued_run, alice, document):
    upload = Upload.objects.create(workload=workload, created_by=alice)
    return {"w": workload.pk, "r": queued_run.pk, "u": upload.pk, "d": document.pk}


@pytest.mark.parametrize("path", GETS)
def test_charlie_gets_404_reading_acmes_objects(as_charlie, ids, path):
    response = as_charlie.get(path.format(**ids))

    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


@pytest.mark.parametrize(("path", "data"), POSTS)
def test_charlie_gets_404_changing_acmes_objects(as_charlie, ids, path, data, prices):
    response = as_charlie.post(path.format(**ids), data)

    assert response.status_code == 404
    assert ComparisonRun.objects.get(pk=ids["r"]).status == "queued"
    assert ComparisonRun.objects.count() == 1
    assert Probe.objects.count() == 1


def test_charlie_gets_404_uploading_to_acmes_workload(as_charlie, ids):
    response = as_charlie.upload(f"/workloads/{ids['w']}/documents", [SimpleUploadedFile("a.txt", b"hello")])

    assert response.status_code == 404
    assert Upload.objects.count() == 1


@pytest.mark.parametrize("path", GETS)
def test_a_missing_or_out_of_range_id_is_404_too(as_alice, path):
    for missing in (0, -1, 987654, 2**63, 10**40):
        response = as_alice.get(path.format(w=missing, r=missing, u=missing, d=missing))
        assert response.status_code == 404, missing


@pytest.mark.parametrize("path", GETS)
def test_an_id_that_is_not_a_number_is_400(as_alice, path):
    response = as_alice.get(path.format(w="abc", r="1e3", u="' OR 1=1", d="abc"))

    assert response.status_code == 400
    assert "Input should be a valid integer" in response.json()["detail"]


def test_charlies_lists_and_price_book_do_not_show_acmes(as_charlie, ids, prices):
    assert as_charlie.get("/workloads").json() == []
    assert as_charlie.get("/prices/gpu").json() == []
    assert as_charlie.get("/prices/api").json() == []


def test_a_bad_body_is_400_before_any_lookup_so_it_reveals_nothing(as_charlie, ids):
    acmes = as_charlie.post(f"/workloads/{ids['w']}/runs", {"model": MODEL})
    missing = as_charlie.post("/workloads/987654/runs", {"model": MODEL})

    assert acmes.status_code == missing.status_code == 400
    assert acmes.json() == missing.json() == {"detail": "model: Extra inputs are not permitted"}
