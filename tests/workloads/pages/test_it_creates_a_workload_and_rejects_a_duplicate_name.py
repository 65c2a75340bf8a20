"""Creating and editing a workload: the name is unique within the organisation, and the form says so."""

import pytest
from django.urls import reverse

from tests.workloads.conftest import MODEL
from tests.workloads.pages.conftest import make_run
from workloads.models import Workload

FORM = {"name": "Support tickets", "kind": "support", "description": "Last quarter's tickets", "expected_volume": "900",
        "target_model": MODEL}


def test_it_creates_a_workload(alice_client, acme):
    page = alice_client.get(reverse("workload_create")).content.decode()
    assert f'<option value="{MODEL}"' in page

    response = alice_client.post(reverse("workload_create"), FORM)
    workload = Workload.objects.get(name="Support tickets")
    assert response.status_code == 302 and response["Location"] == reverse("workload_detail", args=[workload.pk])
    assert (workload.organisation, workload.kind, workload.expected_volume) == (acme, "support", 900)


@pytest.mark.parametrize("name", [
    "support TICKETS",
    "\uff33upport\u00a0tickets",  # a fullwidth S and a no-break space: NFKC makes this "Support tickets"
    "Support  tickets",  # HTML draws it as "Support tickets": two workloads would look like one on every page
], ids=["case", "fullwidth-and-no-break-space", "run-of-spaces"])
def test_it_rejects_a_name_that_reads_like_one_already_used_and_names_the_other(alice_client, acme, name):
    assert alice_client.post(reverse("workload_create"), FORM).status_code == 302

    response = alice_client.post(reverse("workload_create"), {**FORM, "name": name})

    assert response.status_code == 400
    assert ("Your organisation already has a workload with this name: &quot;Support tickets&quot;."
            in response.content.decode())
    assert Workload.objects.count() == 1


def test_a_lone_name_keeps_its_spaces_as_typed(alice_client, acme):
    # Only a clash is refused: a name is stored as typed, so the API and the form save the same.
    assert alice_client.post(reverse("workload_create"), {**FORM, "name": "Support  tickets"}).status_code == 302
    assert Workload.objects.get().name == "Support  tickets"


def test_workloads_named_alike_before_names_were_folded_stay_editable(alice_client, acme):
    Workload.objects.create(organisation=acme, name="Support tickets", kind="support", target_model=MODEL)
    older = Workload.objects.create(organisation=acme, name="Support  tickets", kind="support", target_model=MODEL)

    response = alice_client.post(reverse("workload_edit", args=[older.pk]),
                                 {**FORM, "name": "Support  tickets", "description": "Now with Q3"})
    renamed_alike = alice_client.post(reverse("workload_edit", args=[older.pk]), {**FORM, "name": "SUPPORT  tickets"})

    assert response.status_code == 302
    older.refresh_from_db()
    assert (older.name, older.description) == ("Support  tickets", "Now with Q3")
    assert renamed_alike.status_code == 400


def test_it_rejects_a_name_with_an_invisible_character_inside(alice_client, acme):
    response = alice_client.post(reverse("workload_create"), {**FORM, "name": "Support\u200b tickets"})

    assert response.status_code == 400
    assert "Must not contain invisible characters (U+200B ZERO WIDTH SPACE)." in response.content.decode()
    assert not Workload.objects.exists()


def test_it_keeps_the_zero_width_non_joiner_persian_writes_inside_words(alice_client, acme):
    name = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"

    assert alice_client.post(reverse("workload_create"), {**FORM, "name": name}).status_code == 302
    assert Workload.objects.get().name == name


def test_another_organisation_may_use_the_same_name(alice_client, charlie_client):
    assert alice_client.post(reverse("workload_create"), FORM).status_code == 302
    assert charlie_client.post(reverse("workload_create"), FORM).status_code == 302
    assert sorted(Workload.objects.values_list("organisation__name", flat=True)) == ["Acme", "Globex"]


def test_it_rejects_bad_fields(alice_client, acme):
    response = alice_client.post(reverse("workload_create"), {**FORM, "name": "  ", "target_model": "gpt-17",
                                                               "expected_volume": "-3", "kind": "poems"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "This field is required" in page
    assert "Select a valid choice. gpt-17 is not one of the available choices." in page
    assert "greater than or equal to 0" in page
    assert not Workload.objects.exists()


def test_it_edits_a_workload_but_not_into_another_ones_name(alice_client, workload, acme):
    Workload.objects.create(organisation=acme, name="Codebase", kind="codebase", target_model=MODEL, api_provider="x")
    url = reverse("workload_edit", args=[workload.pk])
    assert 'value="Supplier contracts"' in alice_client.get(url).content.decode()

    response = alice_client.post(url, {**FORM, "name": "Codebase"})
    assert response.status_code == 400 and "already has a workload with this name" in response.content.decode()

    response = alice_client.post(url, {**FORM, "name": "Supplier contracts", "description": "All of 2026"})
    assert response.status_code == 302
    workload.refresh_from_db()
    assert workload.description == "All of 2026" and workload.name == "Supplier contracts"


def test_the_kind_is_fixed_once_a_comparison_measured_it(alice_client, workload):
    edit = {**FORM, "name": workload.name, "kind": "support"}
    url = reverse("workload_edit", args=[workload.pk])
    assert alice_client.post(url, edit).status_code == 302  # no run yet: contracts may become tickets
    workload.refresh_from_db()
    assert workload.kind == "support"
    make_run(workload)

    response = alice_client.post(url, {**edit, "kind": "contracts"})

    assert response.status_code == 400
    assert "measured per ticket, so the kind cannot change" in response.content.decode()
    workload.refresh_from_db()
    assert workload.kind == "support"
    assert alice_client.post(url, {**edit, "description": "still tickets"}).status_code == 302
