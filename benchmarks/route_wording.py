"""When should "search, then whole documents if needed" escalate? The routing step's wordings, measured per model.

Usage: .venv/bin/python benchmarks/route_wording.py [--model NAME] [--sets sample,heldout] [--json PATH]
       [--sample-report COMPARE.json] [--wordings none,only_if,plain]

Self-Route pays only when the search answers most questions itself and escalates the rest. On held-out licence texts
the routing step's "If the text does not say, answer NONE." made the default model say NONE to every question,
though the search without it answered all four: it escalated 4 of 4 and ended at 2 of 4.

Each set is run first as the product runs it (engine.strategies.compare.compare at the run defaults, anchors
calibrated on the documents): "retrieval" and "full_index_share", each question's answer and whether it is right.
--sample-report reads those from a report of `python -m engine compare` on the sample set instead (one with both
strategies, the same model and the defaults), so that a per-kind run of the sample is not run twice; where it has
a routed strategy, that is the "none" wording's routing call (`given`). --wordings measures only those named.
Then every question's search (the same chunks, the same BM25 search) is asked once more in each wording of
engine.strategies.routing.INSTRUCTIONS, with dense attention and greedy decoding, as the routed strategy's first
call is ("plain" is the retrieval strategy's own call: its answer is reused). Each wording gives two rules (RULES):
escalate where the answer says NONE (engine.core.abstention), or also where it is not grounded in the chunks found
(engine.strategies.routing.grounded). Routed's answer is then the whole documents' answer where it escalates and the
routing call's own where it does not, so each rule reports:

  escalated     the share of questions it escalates;
  search_wrong  the share the search alone (the retrieval strategy) gets wrong: the floor to escalate;
  routed        routed's accuracy, beside the better of search and whole documents.

The issue's targets: an escalation rate at most 10 points above search_wrong, and routed accuracy at least the better
of the two minus 5 points.

Sets: "sample" is samples/workload and its probes of every kind (probes.jsonl and kind-probes.jsonl: lookups, joins,
counts and absent facts). "heldout" is text this project did not write: the two licence texts of samples/contracts
with four fees planted (lookups), four companies' fees planted in two halves (the tariff a company is billed under
early, the tariff's fee late: joins) and two companies asked of whom nothing is planted (absent).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads (engine/core/openmp.py)

import torch  # noqa: E402

from benchmarks.machine import provenance  # noqa: E402
from engine.attention import AttentionConfig  # noqa: E402
from engine.core.documents import DocumentText, read_documents  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402
from engine.core.probes import PASSAGE_JOIN, SOURCE_JOIN, ProbeQuestion, is_correct, load_probes  # noqa: E402
from engine.core.run_settings import ANSWER_TOKENS  # noqa: E402
from engine.model.generate import generate  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.strategies import prompts, retrieval, routing  # noqa: E402
from engine.strategies.chunking import split_documents  # noqa: E402
from engine.strategies.compare import ComparisonWork, compare  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "samples" / "workload"
DENSE = AttentionConfig(mode="dense")

# What the routing call adds after the question: "plain" adds nothing, so its answer is the retrieval strategy's own.
# Each wording of engine.strategies.routing.INSTRUCTIONS twice: escalating on NONE alone, and on NONE or an answer
# not grounded in the chunks found. "plain" adds nothing, so its answer is the retrieval strategy's own.
RULES = {f"{wording}{'_grounded' * grounding}": routing.Route(wording, grounding)
         for wording in routing.INSTRUCTIONS for grounding in (False, True)}

LOOKUPS = [("Norrland Freight", "4310"), ("Calloway Printing", "2785"), ("Segura Orchards", "6140"),
           ("Pembrook Dental", "3920")]
JOINS = [("Ilvesta Tiles", "T-17", "5075"), ("Dunmore Ferries", "T-42", "1865"), ("Harwick Mills", "T-08", "2440"),
         ("Osterby Foods", "T-63", "3315")]
ABSENT = ["Brightwater Clinic", "Kestrel Salvage"]


def sample_set() -> tuple[list[DocumentText], list[ProbeQuestion]]:
    documents = read_documents(sorted(SAMPLE.glob("*.txt")))
    probes = [p for name in ("probes", "kind-probes") for p in load_probes(SAMPLE / f"{name}.jsonl")]
    return documents, probes


def heldout_set(seed: int = 20261207) -> tuple[list[DocumentText], list[ProbeQuestion]]:
    """The licence texts with lookups, two-half joins (the halves in different documents or far apart) and nothing
    about the absent companies; each planted sentence at a seeded paragraph break."""
    rng = random.Random(seed)
    texts = {p.name: p.read_text().split("\n\n") for p in sorted((HERE.parent / "samples" / "contracts").glob("*.txt"))}
    names = list(texts)

    def plant(name: str, sentence: str, where: tuple[float, float]) -> None:
        paragraphs = texts[name]
        low, high = (int(len(paragraphs) * share) for share in where)
        paragraphs.insert(rng.randrange(max(low, 1), max(high, 2)), sentence)

    probes = []
    for i, (company, fee) in enumerate(LOOKUPS):
        plant(names[i % 2], f"The annual licence fee for {company} is {fee} euros, payable each January.", (0.1, 0.9))
        probes.append(ProbeQuestion(f"What is the annual licence fee for {company}?", fee, "retrieval"))
    for i, (company, tariff, fee) in enumerate(JOINS):
        halves = {names[i % 2]: f"{company} is billed under tariff {tariff}.",
                  names[(i + 1) % 2]: f"The monthly fee under tariff {tariff} is {fee} euros."}
        for (name, sentence), where in zip(halves.items(), [(0.05, 0.3), (0.6, 0.95)], strict=True):
            plant(name, sentence, where)
        # Both halves kept, so that a search's recall can say whether it found both.
        probes.append(ProbeQuestion(f"What monthly fee does {company} pay?", fee, "multi_hop",
                                    SOURCE_JOIN.join(halves), PASSAGE_JOIN.join(halves.values())))
    for company in ABSENT:
        probes.append(ProbeQuestion(f"What is the annual licence fee for {company}?", "not stated", "absent"))
    return [DocumentText(name, "\n\n".join(paragraphs)) for name, paragraphs in texts.items()], probes


SETS = {"sample": sample_set, "heldout": heldout_set}


def run_set(lm, name: str, report: dict | None, wordings: list[str]) -> dict:
    documents, probes = SETS[name]()
    work = ComparisonWork(documents=documents, probes=probes, strategies=("retrieval", "full_index_share"),
                          diagnostics=False)
    if report is None:
        report = compare(lm, work)
    elif [a["question"] for a in report["strategies"]["retrieval"]["probes"]] != [p.question for p in probes]:
        raise SystemExit(f"the report given for {name} asked other questions")
    index = retrieval.Index(split_documents(documents, lm.tokenizer, work.chunk_tokens, work.chunk_overlap))
    rows = []
    for i, (probe, searched, whole) in enumerate(zip(probes, report["strategies"]["retrieval"]["probes"],
                                                     report["strategies"]["full_index_share"]["probes"], strict=True)):
        found = index.search(probe.question, work.retrieval_chunks, work.retrieval_tokens).chunks
        answers = {wording: given(report, "routed", i) if wording == "none" and "routed" in report
                   else ask(lm, found, probe.question, instruction) if instruction else searched["output"]
                   for wording, instruction in routing.INSTRUCTIONS.items() if wording in wordings}
        row = {"question": probe.question, "kind": probe.kind, "expected": probe.answer,
               "search_right": searched["correct"], "whole_right": whole["correct"], "answers": answers}
        for rule, route in RULES.items():
            if route.wording not in wordings:
                continue
            answer = answers[route.wording]
            escalates = route.escalates(answer, found)
            row[rule] = {"escalates": escalates,
                         "right": whole["correct"] if escalates else is_correct(answer, probe.answer)}
        rows.append(row)
        print(f"{name}: {len(rows)}/{len(probes)}", file=sys.stderr, flush=True)
    return {"documents": report["documents"], "rows": rows, "summary": summarise(rows, wordings)}


def given(report: dict, strategy: str, i: int) -> str:
    """The routing call's answer as a routed run with Self-Route's wording gave it: its own where it kept it, "NONE"
    where it escalated (the call said NONE; its words are not kept, and every rule escalates it alike)."""
    answer = report["strategies"][strategy]["probes"][i]
    return "NONE" if answer["escalated"] else answer["output"]


def ask(lm, found, question: str, instruction: str) -> str:
    """The routing call in one wording: the retrieval prompt with the instruction after the question."""
    return generate(lm, prompts.retrieval_prompt(lm, found, question, instruction), DENSE, ANSWER_TOKENS).text.strip()


def summarise(rows: list[dict], wordings: list[str]) -> dict:
    n = len(rows)
    share = lambda values: sum(values) / n  # noqa: E731
    search, whole = share(r["search_right"] for r in rows), share(r["whole_right"] for r in rows)
    return {"questions": n, "search": search, "whole": whole, "search_wrong": 1 - search,
            "rules": {rule: {"escalated": share(r[rule]["escalates"] for r in rows),
                             "routed": share(r[rule]["right"] for r in rows)}
                      for rule, route in RULES.items() if route.wording in wordings}}


def table(name: str, summary: dict) -> str:
    lines = [f"{name}: {summary['questions']} questions; search alone {summary['search']:.0%}, whole documents "
             f"(Index Share) {summary['whole']:.0%}, search wrong {summary['search_wrong']:.0%}", "",
             "| rule | escalated | routed right |", "|---|---:|---:|"]
    lines += [f"| {rule} | {s['escalated']:.0%} | {s['routed']:.0%} |" for rule, s in summary["rules"].items()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--sets", default="sample,heldout")
    parser.add_argument("--json", default=None)
    parser.add_argument("--sample-report", default=None, type=Path)
    parser.add_argument("--wordings", default=",".join(routing.INSTRUCTIONS),
                        help="the routing call's wordings to measure (engine.strategies.routing.INSTRUCTIONS)")
    args = parser.parse_args()
    lm = load_model(args.model)
    started = datetime.now(timezone.utc)
    reports = {"sample": json.loads(args.sample_report.read_text())} if args.sample_report else {}
    wordings = [w for w in args.wordings.split(",") if w in routing.INSTRUCTIONS]
    results = {name: run_set(lm, name, reports.get(name), wordings) for name in args.sets.split(",")}
    for name, result in results.items():
        print(table(name, result["summary"]) + "\n")
    write_json_atomic(args.json or HERE / f"route_wording-{lm.name}.json",
                      {**provenance(lm.name, torch.__version__, started), "sets": results})


if __name__ == "__main__":
    main()
