"""A failed run (its worker died too often, say) is queued again with the same settings in one click from its page
(the API: tests/workloads/api), its partial results cleared."""

from django.utils import timezone

from tests.workloads.pages.conftest import make_run
from workloads.models import StrategyResult


def test_a_member_retries_a_failed_run_from_its_page(client, bob, workload, django_capture_on_commit_callbacks):
    run = make_run(workload, status="failed", error="its worker stopped without finishing it 4 times",
                   started_at=timezone.now(), finished_at=timezone.now(), takeovers=3, chunk_tokens=96)
    StrategyResult.objects.create(run=run, strategy="chunked", mode="chunked", refused=False)
    client.force_login(bob)
    assert "Try the comparison again" in client.get(f"/runs/{run.pk}/").content.decode()

    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post(f"/runs/{run.pk}/retry/", follow=True)

    assert "Queued again with the same settings." in response.content.decode() and len(queued) == 1
    run.refresh_from_db()
    assert (run.status, run.error, run.takeovers, run.started_at, run.chunk_tokens) == ("queued", "", 0, None, 96)
    assert not run.results.exists()
