"""Two requests at once cannot both take a quota's last place: the check that guards a save counts under a lock on
the organisation's row, in the saving transaction. Here the first request holds its transaction open, uncommitted,
while the second asks: the second waits for it, then counts its run or upload, and is refused."""

import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction

from workloads.comparisons.starting import start_run
from workloads.documents.intake import store_upload
from workloads.models import ComparisonRun, Upload, UploadFile
from workloads.organisations.quotas import QuotaExceeded

HELD_S = 1.5  # how long the first request keeps its transaction open while the second asks


def _race(first, second) -> dict:
    """Run first() in a transaction held open HELD_S after it returns, and second() once first() has returned;
    what became of the second, and whether it finished while the first's transaction was still open."""
    first_saved, second_done, outcome = threading.Event(), threading.Event(), {}

    def run_first():
        try:
            with transaction.atomic():
                first()
                first_saved.set()
                outcome["second finished while the first was open"] = second_done.wait(HELD_S)
        finally:
            connection.close()

    def run_second():
        first_saved.wait(30)
        try:
            second()
            outcome["second"] = "saved"
        except QuotaExceeded as exc:
            outcome["second"] = exc.as_json()
        finally:
            second_done.set()
            connection.close()

    threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return outcome


@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_cannot_both_take_the_last_place(bob, ready, settings):
    settings.QUOTA_RUNS_QUEUED = 1

    outcome = _race(lambda: start_run(ready, bob, ["chunked"]), lambda: start_run(ready, bob, ["full_dense"]))

    assert outcome == {"second finished while the first was open": False,
                       "second": {"quota": "runs_queued", "used": 1, "limit": 1, "adding": 1}}
    assert list(ComparisonRun.objects.values_list("strategies", flat=True)) == [["chunked"]]


@pytest.mark.django_db(transaction=True)
def test_two_uploads_at_once_cannot_both_take_the_last_place(bob, workload, settings):
    settings.QUOTA_UPLOADS_PER_DAY = 1

    outcome = _race(lambda: store_upload(workload, bob, [SimpleUploadedFile("a.txt", b"first")]),
                    lambda: store_upload(workload, bob, [SimpleUploadedFile("b.txt", b"second")]))

    assert outcome == {"second finished while the first was open": False,
                       "second": {"quota": "uploads_per_day", "used": 1, "limit": 1, "adding": 1}}
    assert list(UploadFile.objects.values_list("name", flat=True)) == ["a.txt"]
    assert Upload.objects.count() == 1
