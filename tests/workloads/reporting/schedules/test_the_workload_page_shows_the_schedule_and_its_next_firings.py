"""The workload page says when the schedule fires next, with which settings, and what its last firings did."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from tests.workloads.pages.conftest import html, make_run
from workloads.models import ScheduleEvent
from workloads.reporting.scheduling import next_fire_times


def test_it_shows_the_schedule_in_words_and_the_next_four_firings(alice_client, workload):
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert "Quarterly, on 1 January, April, July and October at 06:00 America/New_York" in page
    times = next_fire_times(workload)
    assert len(times) == 4 and times[0] > timezone.now()
    for when in times:
        local = f"{when:%A} {when.day} {when:%B %Y}, 06:00 America/New_York"
        assert f'<time datetime="{when.isoformat()}">{local}</time>' in page
    assert f'action="{reverse("schedule_edit", args=[workload.pk])}"' in page
    assert f'href="{reverse("organisation_edit")}"' in page


def test_it_names_the_saved_settings_or_the_defaults(alice_client, workload):
    url = reverse("workload_detail", args=[workload.pk])
    page = html(alice_client.get(url))
    assert "A scheduled comparison runs the default strategies with the default settings until" in page

    workload.run_settings = {"strategies": ["chunked", "full_index_share"], "chunk_tokens": 128}
    workload.save(update_fields=["run_settings"])
    assert "A scheduled comparison runs Ask every chunk, Whole documents (Index Share) with chunk tokens 128" in html(alice_client.get(url))


def test_an_off_schedule_lists_no_firings(alice_client, workload):
    workload.schedule = "off"
    workload.save()
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))
    assert "Off: no scheduled comparisons" in page and "Next comparisons" not in page


def test_it_lists_the_last_five_firings_with_their_runs_and_reasons(alice_client, workload):
    run = make_run(workload, status="queued", trigger="scheduled")
    for n in range(5):
        ScheduleEvent.objects.create(workload=workload, period=f"2026-Q{n % 4 + 1}", outcome="skipped",
                                     reason=f"Reason <b>{n}</b>.")
    queued = ScheduleEvent.objects.create(workload=workload, period=run.period, outcome="queued", run=run)
    eleven_utc = dt.datetime(2027, 1, 1, 11, 0, 3, tzinfo=dt.timezone.utc)
    ScheduleEvent.objects.filter(pk=queued.pk).update(fired_at=eleven_utc)
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert "1 Jan 2027 06:00 America/New_York" in page  # fired at 11:00 UTC, shown in the organisation's zone
    assert f'queued <a href="{reverse("run_detail", args=[run.pk])}">run {run.pk}</a>, now queued' in page
    assert "skipped: Reason &lt;b&gt;4&lt;/b&gt;." in page and "skipped: Reason &lt;b&gt;1&lt;/b&gt;." in page
    assert "Reason &lt;b&gt;0&lt;/b&gt;" not in page  # the sixth most recent is left out
    assert "<b>" not in page


def test_the_times_are_in_the_organisations_zone_not_utc(alice_client, workload):
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))
    first = next_fire_times(workload)[0]
    assert first.utcoffset() in (dt.timedelta(hours=-5), dt.timedelta(hours=-4))
    assert first.isoformat() in page
