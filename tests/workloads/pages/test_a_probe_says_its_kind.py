"""A person's probe says its kind (issue 39): the form and the API offer lookup, join, count and absent, and keep
"kind not chosen" for one that leaves it; an absent probe's answer must be a refusal, on the form, in the API and in
a bulk import alike; pages name the kinds as a manager reads them."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.workloads.api.conftest import Api
from workloads.models import ApiToken, Probe


def _add(alice_client, workload, **fields):
    return alice_client.post(reverse("probe_create", args=[workload.pk]),
                             {"question": "What is the late fee?", "answer": "2%", **fields})


def test_the_form_keeps_the_kind_chosen_and_refuses_an_absent_probe_with_an_answer(alice_client, workload):
    assert _add(alice_client, workload, kind="count", answer="3").status_code == 302
    refused = _add(alice_client, workload, kind="absent", question="What is the penalty for fog?", answer="5%")
    assert refused.status_code == 400
    assert "An absent probe asks what the documents do not say: its answer is a refusal" in refused.content.decode()
    assert _add(alice_client, workload, kind="absent", question="What is the fog penalty?",
                answer="not stated").status_code == 302
    assert sorted(Probe.objects.values_list("kind", flat=True)) == ["absent", "count"]
    page = alice_client.get(reverse("workload_detail", args=[workload.pk])).content.decode()
    assert "<td>absent</td>" in page and "<td>count</td>" in page


def test_the_api_and_a_bulk_import_refuse_an_absent_probe_with_an_answer(client, alice, workload):
    api = Api(client, ApiToken.issue(alice))
    refused = api.post(f"/workloads/{workload.pk}/probes",
                       {"question": "What is the fog penalty?", "answer": "5%", "kind": "absent"})
    assert refused.status_code == 400 and "its answer is a refusal" in refused.content.decode()
    kept = api.post(f"/workloads/{workload.pk}/probes",
                    {"question": "Which clause covers fog?", "answer": "join me", "kind": "multi_hop"})
    assert kept.status_code == 201 and kept.json()["kind"] == "multi_hop"
    lines = b'{"question": "What is the fog penalty?", "answer": "5%", "kind": "absent"}\n'
    bad = client.post(f"/api/workloads/{workload.pk}/probes/import",
                      {"file": SimpleUploadedFile("probes.jsonl", lines)}, headers=api.headers)
    assert bad.status_code == 400 and "its answer is a refusal" in bad.content.decode()
    assert Probe.objects.count() == 1
