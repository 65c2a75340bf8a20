"""Workloads are created and listed within the token user's organisation; bad input is a 400 that saves nothing."""

import pytest

from workloads.models import ComparisonRun, Workload

from ..conftest import MODEL

VALID = {"name": "Support tickets", "kind": "support", "description": "Q3 tickets", "expected_volume": 1200,
         "target_model": MODEL, "api_provider": "example-api", "api_model": MODEL}

# Acme's price book has the API model VALID compares against.
pytestmark = pytest.mark.usefixtures("prices")


def test_it_creates_a_workload_in_the_users_organisation(as_alice, acme):
    response = as_alice.post("/workloads", VALID)

    assert response.status_code == 201
    body = response.json()
    workload = Workload.objects.get(pk=body["id"])
    assert workload.organisation == acme
    assert {k: body[k] for k in VALID} == VALID
    assert body | {"id": 0, "created_at": ""} == VALID | {
        "id": 0, "created_at": "", "unit": "ticket", "documents": 0, "tokens": 0, "probes": 0, "latest_run": None}


def test_it_fills_in_kind_description_and_volume_when_left_out(as_alice):
    response = as_alice.post("/workloads", {"name": "Misc", "target_model": MODEL})

    assert response.status_code == 201
    assert (response.json()["kind"], response.json()["description"], response.json()["expected_volume"]) == (
        "other", "", 0)
    assert (response.json()["api_provider"], response.json()["api_model"]) == ("", "")


def test_it_strips_whitespace_around_text(as_alice):
    response = as_alice.post("/workloads", VALID | {"name": "  Padded  ", "api_provider": " example-api\t"})

    assert (response.json()["name"], response.json()["api_provider"]) == ("Padded", "example-api")


@pytest.mark.parametrize("name", ["<script>alert('x')</script>", "Robert'); DROP TABLE workloads_workload;--",
                                  "ünïcødé 契約 🚀", "=cmd|' /C calc'!A0"])
def test_it_stores_hostile_looking_names_as_plain_text(as_alice, name):
    response = as_alice.post("/workloads", VALID | {"name": name})

    assert response.status_code == 201
    assert Workload.objects.get(pk=response.json()["id"]).name == name
    assert as_alice.get(f"/workloads/{response.json()['id']}").json()["name"] == name


def test_it_refuses_a_name_already_used_in_the_organisation(as_alice, workload):
    response = as_alice.post("/workloads", VALID | {"name": workload.name})

    assert response.status_code == 400
    assert response.json() == {
        "detail": 'your organisation already has a workload with this name: "Supplier contracts"'}
    assert Workload.objects.count() == 1


@pytest.mark.parametrize("name", ["\uff33upplier contracts", "SUPPLIER\u00a0CONTRACTS", "Supplier \uff43ontracts",
                                  "Supplier  contracts", "Supplier \u00a0 contracts"])
def test_it_refuses_a_name_that_reads_like_one_already_used(as_alice, workload, name):
    # Fullwidth letters and a no-break space are the same name once NFKC-normalised, and HTML draws a run of spaces
    # as one: the pages would show both alike. The message names the workload it reads like, not a Python repr.
    response = as_alice.post("/workloads", VALID | {"name": name})

    assert (response.status_code, response.json()) == (
        400, {"detail": 'your organisation already has a workload with this name: "Supplier contracts"'})
    assert Workload.objects.count() == 1


def test_it_allows_a_name_that_another_organisation_uses(as_charlie, workload):
    no_api = {"api_provider": "", "api_model": ""}  # Globex's price book is empty
    assert as_charlie.post("/workloads", VALID | no_api | {"name": workload.name}).status_code == 201


BAD = [
    ({"name": ""}, "name: String should have at least 1 character"),
    ({"name": "   "}, "name: String should have at least 1 character"),
    ({"name": "x" * 201}, "name: String should have at most 200 characters"),
    ({"name": "two\nlines"}, "name: must be one line of visible text without control characters"),
    ({"name": "nul\x00byte"}, "name: must be one line of visible text without control characters"),
    ({"name": "Con\u200btracts"}, "name: must not contain invisible characters (U+200B ZERO WIDTH SPACE)"),
    ({"name": "Con\u200ctracts"}, "name: must not contain invisible characters (U+200C ZERO WIDTH NON-JOINER)"),
    ({"name": "\ufeffContracts"}, "name: must not contain invisible characters (U+FEFF ZERO WIDTH NO-BREAK SPACE)"),
    ({"description": "nul\x00byte"}, "description: must not contain NUL characters"),
    ({"description": "x" * 5_001}, "description: String should have at most 5000 characters"),
    ({"name": 42}, "name: Input should be a valid string"),
    ({"name": None}, "name: Input should be a valid string"),
    ({"kind": "poetry"}, "kind: Input should be 'contracts', 'support', 'codebase' or 'other'"),
    ({"expected_volume": -1}, "expected_volume: Input should be greater than or equal to 0"),
    ({"expected_volume": 10**9 + 1}, "expected_volume: Input should be less than or equal to 1000000000"),
    ({"expected_volume": "lots"},
     "expected_volume: Input should be a valid integer, unable to parse string as an integer"),
    ({"expected_volume": 1.5}, "expected_volume: Input should be a valid integer, got a number with a fractional part"),
    ({"target_model": "gpt-9"}, "target_model: unknown model 'gpt-9'; choose from Qwen2.5-Coder-0.5B-Instruct, SmolLM2-135M-Instruct"),
    ({"api_model": "x" * 201}, "api_model: String should have at most 200 characters"),
    ({"api_provider": "example\u200b-api"},
     "api_provider: must not contain invisible characters (U+200B ZERO WIDTH SPACE)"),
    ({"organisation": 2}, "organisation: Extra inputs are not permitted"),
]


@pytest.mark.parametrize(("change", "detail"), BAD, ids=[d for _, d in BAD])
def test_it_refuses_bad_fields_with_the_first_problem(as_alice, change, detail):
    response = as_alice.post("/workloads", VALID | change)

    assert response.status_code == 400
    assert response.json() == {"detail": detail}
    assert not Workload.objects.exists()


def test_it_names_a_missing_required_field(as_alice):
    response = as_alice.post("/workloads", {k: v for k, v in VALID.items() if k != "target_model"})

    assert (response.status_code, response.json()) == (400, {"detail": "target_model: Field required"})


@pytest.mark.parametrize("raw", ["", "not json", "{\"name\": ", "[1, 2]", "\"a string\"", "null", "\xff\xfe"])
def test_it_refuses_a_body_that_is_not_a_json_object(as_alice, raw):
    response = as_alice.post("/workloads", raw=raw)

    assert response.status_code == 400
    assert isinstance(response.json()["detail"], str)
    assert not Workload.objects.exists()


def test_it_lists_only_the_organisations_workloads_by_name(as_alice, as_charlie, workload):
    as_alice.post("/workloads", VALID | {"name": "Another"})
    as_charlie.post("/workloads", VALID | {"name": "Globex secrets"})

    response = as_alice.get("/workloads")

    assert response.status_code == 200
    assert [w["name"] for w in response.json()] == ["Another", "Supplier contracts"]


def test_bob_sees_the_workload_alice_created(as_alice, as_bob):
    as_alice.post("/workloads", VALID)

    assert [w["name"] for w in as_bob.get("/workloads").json()] == ["Support tickets"]


def test_it_shows_a_workloads_counts_and_latest_run(as_alice, workload, document, probe, queued_run):
    newer = ComparisonRun.objects.create(workload=workload, strategies=["chunked"], model=MODEL, units_of_work=1,
                                         status=ComparisonRun.Status.CANCELLED)

    body = as_alice.get(f"/workloads/{workload.pk}").json()

    assert (body["documents"], body["tokens"], body["probes"]) == (1, 120, 1)
    assert body["latest_run"] == {"id": newer.pk, "status": "cancelled"}
    assert body["unit"] == "contract"
    [listed] = as_alice.get("/workloads").json()
    assert listed == body
