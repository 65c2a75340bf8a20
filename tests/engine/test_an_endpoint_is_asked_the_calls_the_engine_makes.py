"""The strategies through an OpenAI-compatible endpoint (engine.strategies.endpoint_compare), against a real server
process answering with the test model (`python -m engine serve --mode dense`): the same calls as the local engine,
answered the same where the attention is the same, billed from each reply's usage; a stop keeps only the questions
every strategy finished, and a second run with the kept replies asks the server only what was never answered."""

import pytest

from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion
from engine.remote.client import EndpointTarget
from engine.strategies.compare import compare
from engine.strategies.endpoint_compare import Tokenizing, compare_endpoint
from engine.strategies.work import ComparisonWork
from tests.workloads.live import requests_served, serve, stop

pytestmark = pytest.mark.model

KEY = "sk-endpoint-run-test-7731"
DOCUMENTS = [DocumentText("supply.txt", "The supplier is Northwind Ltd. The monthly service fee is $4,500. "
                                        "The notice period is 90 days. The governing law is Ireland."),
             DocumentText("lease.txt", "The landlord is Harbour Estates. The rent is $2,100 a month. "
                                       "The lease runs for three years from 1 March 2026.")]
PROBES = [ProbeQuestion("What is the monthly service fee?", "$4,500"),
          ProbeQuestion("Who is the landlord?", "Harbour Estates"),
          ProbeQuestion("What is the notice period?", "90 days")]
STRATEGIES = ["retrieval", "chunked", "full_dense"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    process, url = serve(log, KEY, "--mode", "dense")
    yield url, log
    stop(process)
    assert KEY not in log.read_text()


def _work() -> ComparisonWork:
    return ComparisonWork(DOCUMENTS, PROBES, STRATEGIES, chunk_tokens=32, chunk_overlap=4, diagnostics=False)


def test_it_makes_the_engines_calls_and_bills_what_the_replies_counted(server, smollm2):
    url, log = server
    target = EndpointTarget(url, "smollm2-135m-instruct", KEY)
    tok = Tokenizing(smollm2.name, smollm2.tokenizer)
    before = requests_served(log)

    estimated = []
    remote = compare_endpoint(tok, _work(), target, estimate=lambda tokens_in, out: estimated.append((tokens_in, out)))
    local = compare(smollm2, _work())

    assert requests_served(log) - before == remote["calls"]["made"] == len(remote["order"])
    for name in STRATEGIES:
        there, here = remote["strategies"][name], local["strategies"][name]
        assert there["calls"] == here["calls"]
        # The same tokenizer and chat template on both sides: what the server billed is what was counted here.
        assert there["tokens_in"] == there["tokens_in_local"] == here["tokens_in"]
        assert there["tokens_out"] == here["tokens_out"] and there["tokens_cached"] == 0
        # Greedy, dense, the same ids: the same answers, scored the same way.
        assert [a["output"] for a in there["probes"]] == [a["output"] for a in here["probes"]]
        assert [a["correct"] for a in there["probes"]] == [a["correct"] for a in here["probes"]]
        assert there["quality"]["n_probes"] == len(PROBES) and there["attempts"] == there["calls"]
        assert 0 < there["latency"]["median"] <= there["latency"]["p95"]
    assert remote["stopped"] is None and remote["questions_finished"] == len(PROBES)
    ((tokens_in, tokens_out),) = estimated  # told once, before the first call
    billed = sum(remote["strategies"][s]["tokens_in"] for s in STRATEGIES)
    assert billed <= tokens_in  # the estimate is an upper bound: each reduce planned at its longest
    assert sum(remote["strategies"][s]["tokens_out"] for s in STRATEGIES) <= tokens_out


def test_a_stop_keeps_finished_questions_and_a_resume_asks_only_what_was_never_answered(server, smollm2):
    url, log = server
    target = EndpointTarget(url, "smollm2-135m-instruct", KEY)
    tok = Tokenizing(smollm2.name, smollm2.tokenizer)
    kept: dict[str, dict] = {}

    def keep(key, reply):
        kept[key] = vars(reply)

    before = requests_served(log)
    stopped = compare_endpoint(tok, _work(), target, keep=keep,
                               spend=lambda reply: "the cap" if len(kept) >= 7 else None)
    first = requests_served(log) - before
    assert first == len(kept) == 7 and stopped["stopped"] == "the cap"
    finished = stopped["questions_finished"]
    assert finished < len(PROBES)
    assert all(s["quality"]["n_probes"] == finished for s in stopped["strategies"].values() if "refused" not in s)

    resumed = compare_endpoint(tok, _work(), target, answered=dict(kept), keep=keep)
    assert resumed["calls"]["reused"] == 7
    assert requests_served(log) - before - first == resumed["calls"]["made"] == len(resumed["order"]) - 7
    assert resumed["stopped"] is None and resumed["questions_finished"] == len(PROBES)


def test_a_request_longer_than_the_endpoints_context_is_a_refusal(server, smollm2):
    url, _ = server
    filler = " ".join(f"Clause {i} of the schedule sets out the routine duties of the parties." for i in range(700))
    documents = [DocumentText("long.txt", f"{filler} The notice period is 90 days.")]
    work = ComparisonWork(documents, PROBES[2:], ["retrieval", "full_dense", "routed"], diagnostics=False)
    tok = Tokenizing(smollm2.name, smollm2.tokenizer)
    assert len(tok.tokenizer(documents[0].text)["input_ids"]) > smollm2.max_positions

    report = compare_endpoint(tok, work, EndpointTarget(url, "smollm2-135m-instruct", KEY))

    whole = report["strategies"]["full_dense"]
    assert whole["refused"].startswith("the endpoint refused: The endpoint ")
    assert "the request is longer than the model's context" in whole["refused"]
    assert report["strategies"]["retrieval"]["quality"]["n_probes"] == 1
    routed = report["strategies"]["routed"]  # not refused: a NONE it could not escalate keeps the search's answer
    assert routed["quality"]["n_probes"] == 1 and routed["escalation_refused"] == routed["escalated"]
