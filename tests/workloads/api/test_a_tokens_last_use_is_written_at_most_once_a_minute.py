"""A token's last_used_at says when it was last used, to the minute: a read within a minute of the last one it
recorded writes nothing, a read after that records the time again."""

import datetime as dt

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from workloads.api.auth import LAST_USED_EVERY
from workloads.models import ApiToken


def _writes(as_alice) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert as_alice.get("/workloads").status_code == 200
    return [q["sql"] for q in captured.captured_queries if q["sql"].startswith("UPDATE")]


def test_reads_within_a_minute_write_the_last_use_once(as_alice):
    token = ApiToken.objects.get(digest=ApiToken.hash(as_alice.token))

    assert len(_writes(as_alice)) == 1
    token.refresh_from_db()
    first = token.last_used_at
    assert _writes(as_alice) == [] and _writes(as_alice) == []
    token.refresh_from_db()
    assert token.last_used_at == first


def test_a_read_a_minute_later_records_the_time_again(as_alice):
    token = ApiToken.objects.get(digest=ApiToken.hash(as_alice.token))
    earlier = timezone.now() - LAST_USED_EVERY - dt.timedelta(seconds=1)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=earlier)

    assert len(_writes(as_alice)) == 1
    token.refresh_from_db()
    assert token.last_used_at > earlier + LAST_USED_EVERY
