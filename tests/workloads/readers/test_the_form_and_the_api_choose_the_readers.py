"""Who reads the documents is chosen on the comparison form and in the API (issue 38): the form offers this worker's
engine and each endpoint, says what a run through a priced endpoint could bill before it is queued, refuses a start
with no reader, and queues one run per reader as one batch; the API does the same with `engine` and `endpoint_ids`,
and another organisation's endpoint is not found."""

from django.urls import reverse

from engine.core.run_settings import DEFAULTS
from tests.workloads.api.conftest import Api
from tests.workloads.endpoints.conftest import make_endpoint as unpriced
from workloads.comparisons.batches import side_by_side
from workloads.comparisons.starting import start_run
from workloads.models import ApiToken, ComparisonRun

from .conftest import make_endpoint

FORM = {**DEFAULTS, "strategies": ["retrieval", "full_index_share"], "readers-shown": "True"}


def test_the_form_offers_the_readers_with_an_estimate(alice_client, ready_workload):
    endpoint = make_endpoint(ready_workload.organisation, "http://gpu-box:8000/v1", "sk-form-test")
    page = alice_client.get(reverse("run_create", args=[ready_workload.pk])).content.decode()
    assert "Who reads the documents" in page and f'value="{endpoint.pk}"' in page
    assert "Through GPU box, this comparison could bill up to $0.0" in page
    assert "as our tokenizer counts them), at $0.20 in / $0.05 cached / $0.80 out per M tokens." in page


def test_a_start_with_no_reader_is_refused(alice_client, ready_workload):
    response = alice_client.post(reverse("run_create", args=[ready_workload.pk]), FORM)
    assert response.status_code == 400
    assert "Choose who reads the documents: this worker&#x27;s engine, an endpoint, or both." in \
        response.content.decode()
    assert not ComparisonRun.objects.exists()


def test_the_engine_and_an_endpoint_are_queued_as_one_batch(alice_client, ready_workload,
                                                            django_capture_on_commit_callbacks):
    endpoint = make_endpoint(ready_workload.organisation, "http://gpu-box:8000/v1", "sk-form-test")
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = alice_client.post(reverse("run_create", args=[ready_workload.pk]),
                                     {**FORM, "readers-engine": "on", "readers-endpoints": [endpoint.pk]})
    engine, through = ComparisonRun.objects.order_by("pk")
    assert response.status_code == 302 and response["Location"] == reverse("run_detail", args=[engine.pk])
    assert len(queued) == 2 and engine.batch == through.batch is not None
    assert (engine.reader, through.endpoint) == ("", endpoint)
    assert through.strategies == ["retrieval", "full_dense"]
    waiting = side_by_side(engine)
    assert (waiting.decision, waiting.why_not) == (None, "This worker's engine is queued, GPU box is queued")
    ready_workload.refresh_from_db()
    assert ready_workload.run_settings["endpoint_ids"] == [endpoint.pk]  # what the schedule reads next


def test_the_api_chooses_the_readers_and_finds_no_other_organisations_endpoint(client, alice, charlie,
                                                                               ready_workload):
    endpoint = make_endpoint(ready_workload.organisation, "http://gpu-box:8000/v1", "sk-api-test")
    theirs = make_endpoint(charlie.membership.organisation, "http://elsewhere:8000/v1", "sk-theirs")
    api = Api(client, ApiToken.issue(alice))
    path = f"/workloads/{ready_workload.pk}/runs"

    refused = api.post(path, {"strategies": ["retrieval"], "endpoint_ids": [theirs.pk]})
    assert refused.status_code == 404 and f"no endpoint {theirs.pk}" in refused.json()["detail"]
    none = api.post(path, {"strategies": ["retrieval"], "engine": False})
    assert none.status_code == 400 and "choose who reads the documents" in none.json()["detail"]

    queued = api.post(path, {"strategies": ["retrieval"], "engine": False, "endpoint_ids": [endpoint.pk]})
    assert queued.status_code == 202
    body = queued.json()
    assert (body["endpoint_id"], body["reader"], body["batch"]) == (endpoint.pk, endpoint.reader, None)
    assert "sk-api-test" not in queued.content.decode()


def test_an_unpriced_endpoints_run_is_billed_at_nothing_never_the_workloads_api_model(alice, ready_workload,
                                                                                       django_capture_on_commit_callbacks):
    endpoint = unpriced(ready_workload.organisation, "Ollama")
    with django_capture_on_commit_callbacks(execute=False):
        run = start_run(ready_workload, alice, ["retrieval"], engine=False, endpoints=[endpoint])
    assert (run.reader, run.api_provider, run.api_model) == (endpoint.reader, "", "")
