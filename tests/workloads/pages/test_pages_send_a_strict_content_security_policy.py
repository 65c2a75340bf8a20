"""Every page says where its scripts, styles and images may come from (this site only, no inline code) and which
browser features it never uses."""

import re

from django.urls import reverse

from tests.workloads.pages.conftest import make_run, standard_report


def _directives(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


def test_the_login_page_allows_only_this_sites_scripts_and_styles(client, db):
    policy = _directives(client.get(reverse("login")))

    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"].split()[0] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in " ".join(policy.values()) and "unsafe-eval" not in " ".join(policy.values())


def test_api_answers_and_error_pages_carry_it_too(client, db):
    assert "default-src 'self'" in client.get("/api/workloads")["Content-Security-Policy"]
    assert "default-src 'self'" in client.get("/no-such-page/")["Content-Security-Policy"]


def test_pages_turn_off_the_browser_features_they_never_use(client, db):
    policy = client.get(reverse("login"))["Permissions-Policy"]

    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in policy


def test_the_run_page_with_its_charts_has_no_inline_script_or_style(alice_client, workload, probe, prices):
    run = make_run(workload, standard_report(probe))

    page = alice_client.get(reverse("run_detail", args=[run.pk])).content.decode()

    assert "plotly.min.js" in page  # the charts are on it
    assert re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", page) == []
    assert " style=" not in page and "<style" not in page
    assert re.findall(r"\son[a-z]+=", page) == []  # no event handler attributes
