"""Probes: questions about a workload's documents with short expected answers."""

import pytest

from workloads.models import Probe


def test_it_adds_a_user_probe_with_stripped_text(as_alice, alice, workload):
    response = as_alice.post(f"/workloads/{workload.pk}/probes",
                             {"question": "  Who signs for Acme?\n", "answer": " Jane Roe "})

    assert response.status_code == 201
    probe = Probe.objects.get(pk=response.json()["id"])
    assert (probe.workload, probe.question, probe.answer, probe.kind, probe.created_by) == (
        workload, "Who signs for Acme?", "Jane Roe", "user", alice)
    assert response.json()["kind"] == "user"


def test_it_accepts_a_kind_and_a_source(as_alice, workload):
    response = as_alice.post(f"/workloads/{workload.pk}/probes", {
        "question": "Which clause refers to annex B?", "answer": "7.2", "kind": "cross_reference",
        "source": "contract-a.txt, section 7"})

    assert response.status_code == 201
    assert (response.json()["kind"], response.json()["source"]) == ("cross_reference", "contract-a.txt, section 7")


def test_it_lists_the_workloads_probes_in_the_order_added(as_alice, workload, probe):
    as_alice.post(f"/workloads/{workload.pk}/probes", {"question": "<b>Second?</b>", "answer": "yes"})

    response = as_alice.get(f"/workloads/{workload.pk}/probes")

    assert [p["question"] for p in response.json()] == ["What is the notice period?", "<b>Second?</b>"]


BAD = [
    ({"question": "", "answer": "a"}, "question: String should have at least 1 character"),
    ({"question": " \n\t ", "answer": "a"}, "question: String should have at least 1 character"),
    ({"question": "q?", "answer": "   "}, "answer: String should have at least 1 character"),
    ({"question": "q" * 2001, "answer": "a"}, "question: String should have at most 2000 characters"),
    ({"question": "q?", "answer": "a" * 501}, "answer: String should have at most 500 characters"),
    ({"question": "q\x00?", "answer": "a"}, "question: must not contain NUL characters"),
    ({"question": "q?", "answer": "two\nlines"}, "answer: must be one line of visible text without control characters"),
    ({"question": "q?", "answer": "90\u200bdays"},
     "answer: must not contain invisible characters (U+200B ZERO WIDTH SPACE)"),
    ({"question": "\ufeffq?", "answer": "a"},
     "question: must not contain invisible characters (U+FEFF ZERO WIDTH NO-BREAK SPACE)"),
    ({"question": ["q"], "answer": "a"}, "question: Input should be a valid string"),
    ({"question": "q?"}, "answer: Field required"),
    ({"question": "q?", "answer": "a", "kind": "trivia"},
     "kind: Input should be 'user', 'retrieval', 'cross_reference', 'multi_hop', 'count' or 'absent'"),
    ({"question": "q?", "answer": "a", "workload": 7}, "workload: Extra inputs are not permitted"),
]


@pytest.mark.parametrize(("data", "detail"), BAD, ids=[d for _, d in BAD])
def test_it_refuses_a_bad_probe_and_saves_nothing(as_alice, workload, data, detail):
    response = as_alice.post(f"/workloads/{workload.pk}/probes", data)

    assert (response.status_code, response.json()) == (400, {"detail": detail})
    assert not Probe.objects.exists()


def test_it_lists_a_generated_probes_passage(as_alice, workload):
    Probe.objects.create(workload=workload, question="What is the fee?", answer="$4,500", kind="retrieval",
                         source="a.txt", passage="The fee is $4,500.")

    response = as_alice.get(f"/workloads/{workload.pk}/probes")

    assert [(p["source"], p["passage"]) for p in response.json()] == [("a.txt", "The fee is $4,500.")]
