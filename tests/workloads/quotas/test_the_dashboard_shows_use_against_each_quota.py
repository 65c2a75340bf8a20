"""The dashboard shows the organisation's use against each quota, and which one is reached; another organisation's
use is not counted."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.workloads.quotas.conftest import page_text
from workloads.comparisons.starting import start_run
from workloads.documents.intake import store_upload
from workloads.models import GroupSweep, Organisation, Workload


def _row(page: str, label: str) -> str:
    start = page.index(f'<th scope="row">{label}</th>')
    return page[start:page.index("</tr>", start)]


def test_the_dashboard_shows_use_against_each_quota(client, acme, bob, ready, settings):
    settings.QUOTA_RUNS_QUEUED, settings.QUOTA_UPLOADS_PER_DAY = 10, 100
    acme.quota_runs_queued = 3  # the organisation's own beats the default
    acme.save()
    start_run(ready, bob, ["chunked"])
    GroupSweep.objects.create(workload=ready, model=ready.target_model, group_sizes=[4])
    store_upload(ready, bob, [SimpleUploadedFile("a.txt", b"x" * 3000)])
    # Globex's use is its own.
    globex = Workload.objects.create(organisation=Organisation.objects.create(name="Globex"), name="Other",
                                     target_model=ready.target_model)
    store_upload(globex, None, [SimpleUploadedFile("b.txt", b"y" * 5000)])
    client.force_login(bob)

    page = page_text(client.get(reverse("dashboard")))

    runs = _row(page, "Runs and sweeps queued or running")
    assert "<td>2</td> <td>3</td>" in runs and 'max="3" value="2"' in runs and "(reached)" not in runs
    assert "<td>1</td> <td>100</td>" in _row(page, "Uploads today")
    # The ready workload's document holds 24 bytes of text; the upload 3,000 bytes.
    assert "<td>3.0 KiB</td> <td>5.0 GiB</td>" in _row(page, "Documents' text and uploaded files stored")
    assert f'value="{24 + 3000}"' in _row(page, "Documents' text and uploaded files stored")


def test_a_quota_reached_says_so(client, acme, bob, ready):
    acme.quota_runs_queued = 1
    acme.save()
    start_run(ready, bob, ["chunked"])
    client.force_login(bob)

    page = page_text(client.get(reverse("dashboard")))

    assert "<td>1 <strong>(reached)</strong></td> <td>1</td>" in _row(page, "Runs and sweeps queued or running")
