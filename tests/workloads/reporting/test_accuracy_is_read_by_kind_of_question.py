"""Accuracy by kind of question (issue 39): each strategy's right answers per kind, named as a manager reads them
(lookup, join), with their 95% range on the run page, the PDF and the API; the gate runs on a kind alone with the
same statistics as the overall gate, and the reasons name a kind on which the recommended strategy cannot be told
from the best."""

import pytest
from django.urls import reverse

from engine.core import stats
from tests.workloads.api.conftest import Api
from tests.workloads.pages.conftest import answer, make_run, report, strategy
from tests.workloads.pages.test_no_identifier_reaches_a_reader import visible
from tests.workloads.reporting.summary.conftest import pdf_text
from workloads.models import ApiToken, Probe
from workloads.reporting import by_kind
from workloads.reporting.recommendation import recommendation
from workloads.reporting.summary.render import render_summary

SHARE = [True] * 10 + [True] * 4 + [False]  # every lookup, four of five joins
DENSE = [True] * 15


@pytest.fixture
def run(workload, prices):
    probes = ([Probe.objects.create(workload=workload, question=f"What is fee {i}?", answer=f"{i} euros",
                                    kind="retrieval") for i in range(10)]
              + [Probe.objects.create(workload=workload, question=f"Which fee does tenant {i} pay?",
                                      answer=f"{i} euros", kind="multi_hop") for i in range(5)])
    gates = stats.gates({"full_index_share": SHARE, "full_dense": DENSE}, 5.0)

    def entry(name, mode, seconds, right):
        answers = [answer(p, p.answer if ok else "no idea", ok) for p, ok in zip(probes, right, strict=True)]
        made = strategy(mode, seconds=seconds, accuracy=sum(right) / len(right), answers=answers)
        gate = gates[name]
        made["quality"] |= {"gate": gate.call, "gated": gate.call == "gated", "mcnemar_p": gate.p_value,
                            "probes_to_tell": gate.probes_to_tell, "by_kind": stats.by_kind(answers)}
        return made

    return make_run(workload, report({"full_index_share": entry("full_index_share", "index_share", 36.0, SHARE),
                                      "full_dense": entry("full_dense", "dense", 72.0, DENSE)}))


def test_the_kinds_are_gated_alone_as_the_whole_run_is(run):
    results = list(run.results.prefetch_related("answers"))
    chosen = recommendation(run)
    table = by_kind.table(results, run.gate_points, chosen.recommended)
    assert table.kinds == ["lookup", "join"]
    cells = {r.strategy: cells for r, cells in table.rows}
    share_lookup, share_join = cells["full_index_share"]
    assert (share_lookup.correct, share_lookup.n, share_lookup.gate) == (10, 10, "within")
    # The same statistics as the overall gate, on the joins alone: 20 points below on 5 questions cannot be told.
    expected = stats.gates({"full_index_share": SHARE[10:], "full_dense": DENSE[10:]}, 5.0)["full_index_share"]
    assert (share_join.correct, share_join.n, share_join.gate) == (4, 5, expected.call) == (4, 5, "cannot_tell")
    assert share_join.interval == stats.wilson(4, 5)
    assert chosen.recommended == "full_index_share"
    assert table.reasons == ["On join questions, whole documents (Index Share) answers 4 of 5, against 5 for whole "
                             "documents (dense): fewer right answers, but too few questions to tell that from chance."]


def test_a_kind_with_too_few_questions_has_no_gate(run, monkeypatch):
    monkeypatch.setattr(by_kind, "MIN_QUESTIONS", 11)  # the run has 10 lookups and 5 joins
    table = by_kind.table(list(run.results.prefetch_related("answers")), run.gate_points, "full_index_share")
    assert [cell.gate for _, cells in table.rows for cell in cells] == [""] * 4 and table.reasons == []


def test_the_run_page_the_pdf_and_the_api_read_accuracy_by_kind(alice_client, client, alice, run):
    page = visible(alice_client.get(reverse("run_detail", args=[run.pk])))
    assert "Right answers by kind of question On join questions" in page
    assert "Strategy Lookup Join Whole documents (Index Share) 10 of 10 (72.2%–100%) 4 of 5 (37.6%–96.4%) cannot tell" \
        in page
    assert "On join questions, whole documents (Index Share) answers 4 of 5" in page

    text = pdf_text(render_summary(run)[0])
    assert "Right answers by kind of question" in text and "4 of 5 (37.6%–96.4%), cannot tell yet" in text

    body = Api(client, ApiToken.issue(alice)).get(f"/runs/{run.pk}").json()
    share = next(r for r in body["results"] if r["strategy"] == "full_index_share")
    assert share["by_kind"]["multi_hop"] == {"correct": 4, "n": 5, "accuracy": 0.8,
                                             "ci95": pytest.approx(list(stats.wilson(4, 5)))}
