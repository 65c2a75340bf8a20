"""A viewer reads and changes nothing, a member changes the workloads, and only an admin changes prices, the
organisation's settings and its members, or deletes a workload. Every page of the app is classified below,
so a new one cannot slip in without saying which role may use it."""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from tests.workloads.endpoints.conftest import make_endpoint
from tests.workloads.pages.conftest import html, make_run, standard_report
from workloads.models import (ApiPrice, ComparisonRun, Document, Endpoint, GpuPrice, GroupSweep, Membership,
                              Organisation, Probe, Summary, SummaryEmail, Upload, Workload)
from workloads.urls import urlpatterns

# What each page does with a POST; a page that only reads answers any method the same way.
READS = {"dashboard", "workload_detail", "document_detail", "document_text", "planning", "upload_detail",
         "upload_status", "run_detail", "run_status", "runs_csv", "summary_download", "summary_status",
         "run_export_csv", "run_export_json", "workload_history_csv", "workload_history_json", "price_book",
         "sweep_detail", "endpoints"}
VIEWERS_MAY = {"summary_create"}  # a PDF of a run is another way of reading it
ADMINS_ONLY = {"workload_delete", "run_delete", "organisation_edit", "gpu_price_create", "gpu_price_delete",
               "api_price_create", "api_price_delete", "reprice_all", "run_reprice", "member_add", "member_role",
               "member_remove", "member_link", "endpoint_create", "endpoint_delete"}
MEMBERS_MAY = {"workload_create", "workload_edit", "document_delete", "schedule_edit", "schedule_fire",
               "upload_create", "probe_create", "probes_generate", "probe_import", "probe_edit", "probe_delete",
               "run_create", "run_cancel", "run_retry", "upload_cancel", "upload_retry", "summary_email",
               "summary_cancel", "sweep_create", "sweep_cancel", "sweep_retry"}
# Pages whose GET shows a form to change something: nobody who may not send it is shown it.
FORM_PAGES = {"workload_create", "workload_edit", "workload_delete", "run_delete", "upload_create", "probe_create",
              "probe_import", "probe_edit", "probe_delete", "run_create", "schedule_edit"}


@pytest.fixture
def things(workload, document, probe, prices, alice, bob):
    run = make_run(workload, standard_report(probe))
    return {
        "workload": workload, "run": run, "document": document, "probe": probe,
        "upload": Upload.objects.create(workload=workload, created_by=alice, status=Upload.Status.DONE),
        "gpu_price": prices["h200"], "api_price": prices["api"], "membership": bob.membership,
        "endpoint": make_endpoint(workload.organisation),
        "sweep": GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[1, 4]),
    }


def _url(pattern: URLPattern, things: dict) -> str:
    """The pattern's URL, its <pk> being the object of the kind its route starts with."""
    route = str(pattern.pattern)
    owner = {"workloads/": "workload", "runs/": "run", "uploads/": "upload", "prices/gpu/": "gpu_price",
             "prices/api/": "api_price", "organisation/members/": "membership", "endpoints/": "endpoint",
             "sweeps/": "sweep"}
    kwargs = {}
    if "<int:pk>" in route:
        kind = next(kind for prefix, kind in owner.items() if route.startswith(prefix))
        kwargs["pk"] = things[kind].pk
    for name in ("document_pk", "probe_pk"):
        if f"<int:{name}>" in route:
            kwargs[name] = things[name.removesuffix("_pk")].pk
    return reverse(pattern.name, kwargs=kwargs)


def _state() -> list:
    """Everything a POST could change, in a form two snapshots can be compared in."""
    return [
        list(Workload.objects.values_list("pk", "name", "description", "schedule").order_by("pk")),
        list(Document.objects.values_list("pk").order_by("pk")),
        list(Probe.objects.values_list("pk", "question").order_by("pk")),
        list(ComparisonRun.objects.values_list("pk", "status", "priced_at").order_by("pk")),
        list(Upload.objects.values_list("pk").order_by("pk")),
        list(Summary.objects.values_list("pk", "status").order_by("pk")),
        list(GroupSweep.objects.values_list("pk", "status").order_by("pk")),
        list(SummaryEmail.objects.values_list("pk").order_by("pk")),
        list(GpuPrice.objects.values_list("pk").order_by("pk")),
        list(ApiPrice.objects.values_list("pk").order_by("pk")),
        list(Endpoint.objects.values_list("pk", "name").order_by("pk")),
        list(Membership.objects.values_list("pk", "role").order_by("pk")),
        list(Organisation.objects.values_list("pk", "timezone", "summary_recipients", "endpoint_run_cap",
                                              "endpoint_month_cap").order_by("pk")),
    ]


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_every_page_says_who_may_use_it():
    named = {p.name for p in urlpatterns}
    classified = READS | VIEWERS_MAY | ADMINS_ONLY | MEMBERS_MAY
    assert named == classified, f"unclassified: {named - classified}; gone: {classified - named}"


@pytest.mark.parametrize("name", sorted(MEMBERS_MAY | ADMINS_ONLY))
def test_a_viewer_changes_nothing(things, vera, name):
    pattern = next(p for p in urlpatterns if p.name == name)
    before = _state()

    response = _client(vera).post(_url(pattern, things), {"name": "Renamed", "role": "admin", "timezone": "Asia/Tokyo",
                                                          "question": "Changed?", "answer": "yes"})

    assert response.status_code == 403
    assert "you are a viewer in Acme" in html(response)
    assert _state() == before


@pytest.mark.parametrize("name", sorted(ADMINS_ONLY))
def test_a_member_changes_no_price_setting_or_membership(things, bob, name):
    pattern = next(p for p in urlpatterns if p.name == name)
    before = _state()

    response = _client(bob).post(_url(pattern, things), {"role": "admin", "timezone": "Asia/Tokyo",
                                                         "device_class": "cpu", "per_hour": "0.01",
                                                         "effective_from": "2026-02-01", "source": "mine",
                                                         "name": "Mine", "base_url": "http://mine/v1", "model": "m"})

    assert response.status_code == 403
    assert "you are a member in Acme, and only admins may do this" in html(response)
    assert _state() == before


@pytest.mark.parametrize("name", sorted(FORM_PAGES))
def test_a_form_is_shown_only_to_whoever_may_send_it(things, bob, vera, name):
    url = _url(next(p for p in urlpatterns if p.name == name), things)
    assert _client(vera).get(url).status_code == 403
    assert _client(bob).get(url).status_code == (403 if name in ADMINS_ONLY else 200)


def test_a_viewer_exports_a_pdf_summary(things, vera):
    response = _client(vera).post(reverse("summary_create", args=[things["run"].pk]))
    assert response.status_code == 302
    assert Summary.objects.get(run=things["run"]).requested_by == vera


def _post_forms(response) -> set[str]:
    """The names of the URLs the page's POST forms send to."""
    actions = re.findall(r'<form method="post" action="([^"]+)"', response.content.decode())
    names = {}
    for pattern in urlpatterns:
        names[re.sub(r"<int:\w+>", r"\\d+", "/" + str(pattern.pattern))] = pattern.name
    return {next((name for route, name in names.items() if re.fullmatch(route, a)), a) for a in actions}


@pytest.mark.parametrize("page", ["dashboard", "workload_detail", "run_detail", "price_book", "organisation_edit",
                                  "endpoints"])
def test_pages_offer_each_role_only_what_it_may_do(things, alice, bob, vera, page):
    url = _url(next(p for p in urlpatterns if p.name == page), things)
    offered = {who.username: _post_forms(_client(who).get(url)) - {"/accounts/logout/"} for who in (alice, bob, vera)}

    assert offered["vera"] <= VIEWERS_MAY
    assert offered["bob"] <= VIEWERS_MAY | MEMBERS_MAY
    assert offered["bob"] >= offered["vera"]
    assert offered["alice"] >= offered["bob"]
    if page == "workload_detail":
        assert offered["bob"] - offered["vera"], "a member is offered what a viewer is not"
    if page == "run_detail":  # a finished run: re-pricing it is all there is to change, and only admins may
        assert "run_reprice" in offered["alice"] and "run_reprice" not in offered["bob"]
    if page in ("price_book", "organisation_edit", "endpoints"):
        assert offered["alice"] & ADMINS_ONLY and not offered["bob"]


def test_a_viewer_reads_the_organisation_settings_without_a_form(things, vera, acme):
    acme.summary_recipients = "cfo@acme.example"
    acme.save()
    page = html(_client(vera).get(reverse("organisation_edit")))
    assert "cfo@acme.example" in page and "Only admins change these." in page
    assert "<select" not in page and "<textarea" not in page
    for user, role in (("alice", "Admin"), ("bob", "Member"), ("vera", "Viewer")):
        assert f'<th scope="row">{user}' in page and f"<td>{role}</td>" in page

