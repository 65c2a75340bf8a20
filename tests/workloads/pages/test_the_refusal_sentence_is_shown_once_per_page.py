"""A refused strategy is left out of every chart, and the page says so once, not under each chart."""

from django.urls import reverse

from tests.workloads.pages.conftest import html, make_run, standard_report


def test_the_run_and_workload_pages_say_it_once(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    sentence = "Whole documents (sliding window) was refused in run"

    run_page = html(alice_client.get(reverse("run_detail", args=[run.pk])))
    workload_page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert run_page.count(sentence) == 1
    assert workload_page.count(sentence) == 1  # under four charts
    assert "Left out of the charts above:" in workload_page
