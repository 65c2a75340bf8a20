"""Counting a page's database queries, for the tests that hold a page's count steady as its data grows."""

from django.db import connection
from django.test.utils import CaptureQueriesContext


def queries(client, url: str, **headers) -> list[str]:
    """The SQL of one GET of `url`, after a first GET that may fill per-process caches."""
    assert client.get(url, headers=headers).status_code == 200, url
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return [q["sql"] for q in captured.captured_queries]


def grown(before: list[str], after: list[str]) -> str:
    """What a failing comparison shows: the two counts and the queries the larger one added."""
    extra = [sql for sql in after if sql not in before][:5]
    return f"{len(before)} queries, then {len(after)}; new ones include:\n" + "\n".join(s[:300] for s in extra)
