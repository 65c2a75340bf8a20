"""A join rests on two sentences (issue 39): the workload page quotes each on its own, named by its document, with
the answer marked where it stands; a join inside one document names that document twice."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Probe


def _quotes(page: str) -> list[str]:
    return [part.split("</blockquote>")[0] for part in page.split("data-passage>")[1:]]


def test_a_join_across_documents_shows_each_sentence_with_its_document(alice_client, workload):
    Probe.objects.create(workload=workload, question="What is the phone extension of the account manager?",
                         answer="4412", kind="multi_hop", source="contract.txt + chat.txt",
                         passage="The account manager is Dana Reyes. … Dana Reyes's phone extension is 4412.")

    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert _quotes(page) == ["<cite>contract.txt</cite> The account manager is Dana Reyes.",
                             "<cite>chat.txt</cite> Dana Reyes&#x27;s phone extension is <mark>4412</mark>."]


def test_a_join_inside_one_document_names_it_for_each_sentence(alice_client, workload):
    Probe.objects.create(workload=workload, question='What is the fee of the party called the "Provider"?',
                         answer="$90", kind="cross_reference", source="msa.txt",
                         passage='Acme Ltd, a carrier (the "Provider"). … The fee of Acme Ltd is $90.')

    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert _quotes(page) == ["<cite>msa.txt</cite> Acme Ltd, a carrier (the &quot;Provider&quot;).",
                             "<cite>msa.txt</cite> The fee of Acme Ltd is <mark>$90</mark>."]


def test_a_passage_whose_parts_do_not_match_its_documents_is_one_quote(alice_client, workload):
    Probe.objects.create(workload=workload, question="Which?", answer="x", kind="user", source="a.txt + b.txt",
                         passage="One … two … three x.")

    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert _quotes(page) == ["One … two … three <mark>x</mark>."]
