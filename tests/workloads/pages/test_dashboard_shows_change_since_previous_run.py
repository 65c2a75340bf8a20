"""The dashboard shows each workload's latest comparison and what changed since the one before."""

import datetime as dt

from django.urls import reverse
from django.utils.html import escape

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import VERSIONS, html, make_run, standard_report
from workloads.documents.document_sets import snapshot
from workloads.models import Document, GpuPrice, Workload
from workloads.reporting.recommendation import recommendation


def test_dashboard_shows_change_since_previous_run(alice_client, acme, workload, probe, prices, document):
    march = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    june = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)
    before = make_run(workload, standard_report(probe, index_share_seconds=36, index_share_right=False),
                      created_at=march)
    now = make_run(workload, standard_report(probe, index_share_seconds=27, index_share_right=True),
                   created_at=june, versions={**VERSIONS, "torch": "2.14.0"})
    Workload.objects.create(organisation=acme, name="Empty one", target_model=MODEL, api_provider="example-api")

    page = html(alice_client.get(reverse("dashboard")))
    assert "Acme: workloads" in page
    assert f'<a href="{reverse("run_detail", args=[now.pk])}">run {now.pk}</a> of 1 Jun 2026' in page
    before_link = f'<a href="{reverse("run_detail", args=[before.pk])}">run {before.pk}</a>'
    assert f"compared with {before_link} of 1 Mar 2026" in page
    # full_index_share: from 36 s to 27 s of CPU (-25%), from wrong to right (+100 points).
    assert ('<th scope="row">Whole documents (Index Share)</th> <td>$0.00075</td> <td>$0.000188</td> <td>100% <small>(20.7%–100%) of 1</small></td> '
            "<td>-25.0%</td> <td>+100.0 points</td>") in page
    assert ('<th scope="row">Whole documents (dense)</th> <td>$0.002</td> <td>$0.0005</td> <td>100% <small>(20.7%–100%) of 1</small></td> '
            "<td>+0.0%, within noise</td> <td>+0.0 points</td>") in page
    assert "refused: longer than the model" in page
    # The latest comparison's recommendation, in the words its run page uses.
    assert f'<p class="sentence">{escape(recommendation(now).sentence)}</p>' in page
    assert "torch: 2.13.0 → 2.14.0" in page
    assert "1 document · 1,234 tokens" in page
    assert "Empty one" in page and "No finished comparison yet." in page


def test_it_says_what_changed_in_the_gpu_price_in_dollars_as_pages_show_them(alice_client, acme, workload, probe,
                                                                              prices):
    make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    GpuPrice.objects.create(organisation=acme, device_class="cpu", per_hour="0.2", effective_from=dt.date(2026, 5, 1),
                            source="a new quote")
    make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC))

    page = html(alice_client.get(reverse("dashboard")))

    assert "<li>GPU price: cpu at $0.10 an hour from 1 Jan 2026 → cpu at $0.20 an hour from 1 May 2026</li>" in page


def test_it_says_what_changed_in_the_documents_since_the_previous_run(alice_client, workload, probe, prices):
    terms = Document(name="terms.txt", text="Notice: 30 days.", tokens=1000)
    annex = Document(name="annex.txt", text="Prices.", tokens=200)
    before = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC),
                      documents=snapshot([terms, annex, Document(name="policy.txt", text="Old.", tokens=300)]))
    same = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 4, 1, tzinfo=dt.UTC),
                    documents=before.documents)
    assert f"Same device, versions, prices and documents as run {before.pk}." in html(alice_client.get(
        reverse("dashboard")))

    terms.text, terms.tokens = "Notice: 90 days.", 1100  # a new version under the same name
    make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC),
             documents=snapshot([terms, annex, Document(name="schedule.txt", text="Mondays.", tokens=50)]))

    page = html(alice_client.get(reverse("dashboard")))
    assert f"Also changed since run {same.pk}:" in page
    assert ("<li>documents: 1 added (schedule.txt), 1 changed (terms.txt), 1 removed (policy.txt); "
            "1,500 → 1,350 tokens</li>") in page


def test_runs_from_before_runs_kept_their_documents_are_not_compared_on_them(alice_client, workload, probe, prices):
    before = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC),
             documents=snapshot([Document(name="terms.txt", text="Notice: 90 days.", tokens=1100)]))

    assert before.documents is None
    page = " ".join(html(alice_client.get(reverse("dashboard"))).split())
    assert "prices and documents" not in page
    assert (f"<li>documents: not known, run {before.pk} kept no list of its documents</li>"
            in page)


def test_the_unknown_documents_are_said_beside_other_changes_and_of_the_run_without_a_list(
        alice_client, workload, probe, prices):
    # A run finished by an older worker after the upgrade has no list, the one before it has one.
    before = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC),
                      documents=snapshot([Document(name="terms.txt", text="Notice: 90 days.", tokens=1100)]))
    after = make_run(workload, standard_report(probe), created_at=dt.datetime(2026, 6, 1, tzinfo=dt.UTC),
                     versions={**VERSIONS, "torch": "2.14.0"})

    page = " ".join(html(alice_client.get(reverse("dashboard"))).split())

    assert before.documents is not None and after.documents is None
    assert f"Also changed since run {before.pk}:" in page and "<li>torch: 2.13.0 → 2.14.0</li>" in page
    assert f"<li>documents: not known, run {after.pk} kept no list of its documents</li>" in page


def test_the_first_comparison_has_nothing_to_compare_with(alice_client, workload, probe, prices):
    make_run(workload, standard_report(probe))
    page = html(alice_client.get(reverse("dashboard")))
    assert "This is the first finished comparison" in page and "Cost change" not in page


def test_a_newer_run_in_progress_is_shown_next_to_the_latest_comparison(alice_client, workload, probe, prices):
    make_run(workload, standard_report(probe))
    running = make_run(workload, status="running")
    page = html(alice_client.get(reverse("dashboard")))
    assert f"Latest run: <a href=\"{reverse('run_detail', args=[running.pk])}\">run {running.pk}</a>" in page
    assert "status-running" in page


def test_an_organisation_without_workloads_is_invited_to_create_one(alice_client):
    assert "No workloads yet." in html(alice_client.get(reverse("dashboard")))
