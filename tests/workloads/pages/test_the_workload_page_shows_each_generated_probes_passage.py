"""A generated probe keeps its source and passage, and the workload page shows both beside it, escaped, trimmed
to about 300 characters around the answer, with the answer marked: a person can check it in one look."""

from django.urls import reverse

from tests.workloads.pages.conftest import html
from workloads.models import Probe


def test_generation_stores_each_probes_passage(workload, document):
    from workloads.tasks import generate_probes

    generate_probes(workload.pk)

    assert list(workload.probes.values_list("answer", "source", "passage")) == [
        ("90 days", "master-services-agreement.txt", "The notice period is 90 days.")]


def test_the_page_shows_the_source_and_the_passage_with_the_answer_marked_and_escaped(alice_client, workload):
    Probe.objects.create(workload=workload, question="What is the fee?", answer="$4,500", kind="retrieval",
                         source="a <b>.txt", passage="Per <i>clause</i> 4, the fee is $4,500.")

    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert ('<td>a &lt;b&gt;.txt <blockquote class="passage" data-passage>Per &lt;i&gt;clause&lt;/i&gt; 4, the fee '
            "is <mark>$4,500</mark>.</blockquote></td>") in page


def test_a_long_passage_is_trimmed_around_the_answer(alice_client, workload):
    passage = "A" * 400 + " The code is X-9. " + "B" * 400
    Probe.objects.create(workload=workload, question="What is the code?", answer="X-9", kind="retrieval",
                         source="a.txt", passage=passage)

    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    shown = page.split("data-passage>")[1].split("</blockquote>")[0]
    assert shown.startswith("…A") and shown.endswith("B…") and "The code is <mark>X-9</mark>." in shown
    assert len(shown.replace("<mark>", "").replace("</mark>", "")) == 300 + 2


def test_a_passage_without_its_answer_is_shown_unmarked(alice_client, workload):
    # A cross-reference's answer is a document's name; its passage is the defining sentence.
    Probe.objects.create(workload=workload, question='Which document defines "Delivery Window"?', answer="sla.txt",
                         kind="cross_reference", source="sla.txt", passage='"Delivery Window" means two hours.')

    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert "data-passage>&quot;Delivery Window&quot; means two hours.</blockquote>" in page


def test_a_probe_without_a_passage_shows_none(alice_client, workload, probe):
    page = html(alice_client.get(reverse("workload_detail", args=[workload.pk])))

    assert "data-passage" not in page and "<td>90 days</td> <td>kind not chosen</td> <td>—</td>" in page
