"""A join rests on two sentences (issue 39): the workload page quotes each on its own, named by its document, with
the answer marked where it stands; a join inside one document names that document twice."""

import pytest
from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Probe


def _quotes(page: str) -> list[str]:
    return [part.split("</blockquote>")[0] for part in page.split("data-passage>")[1:]]


@pytest.mark.parametrize("kind, source, passage, quotes", [
    # across documents: each sentence under its own
    ("multi_hop", "contract.txt + chat.txt",
     "The account manager is Dana Reyes. … Dana Reyes's phone extension is 4412.",
     ["<cite>contract.txt</cite> The account manager is Dana Reyes.",
      "<cite>chat.txt</cite> Dana Reyes&#x27;s phone extension is <mark>4412</mark>."]),
    # inside one document: that document named for each sentence
    ("cross_reference", "msa.txt", 'Acme Ltd, a carrier (the "Provider"). … The fee of Acme Ltd is 4412.',
     ["<cite>msa.txt</cite> Acme Ltd, a carrier (the &quot;Provider&quot;).",
      "<cite>msa.txt</cite> The fee of Acme Ltd is <mark>4412</mark>."]),
])
def test_each_sentence_of_a_join_is_quoted_under_its_document(alice_client, workload, kind, source, passage, quotes):
    Probe.objects.create(workload=workload, question="What is it?", answer="4412", kind=kind, source=source,
                         passage=passage)

    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert _quotes(page) == quotes


def test_a_passage_whose_parts_do_not_match_its_documents_is_one_quote(alice_client, workload):
    Probe.objects.create(workload=workload, question="Which?", answer="x", kind="user", source="a.txt + b.txt",
                         passage="One … two … three x.")

    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert _quotes(page) == ["One … two … three <mark>x</mark>."]
