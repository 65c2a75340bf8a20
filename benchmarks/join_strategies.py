"""Can the chunk strategies join? Search the chunks and ask every chunk, before and after, on questions whose answer
needs two passages.

Usage: .venv/bin/python benchmarks/join_strategies.py [--model NAME] [--sets sample,heldout,distractor]
       [--search once,answer,subject] [--chunked pick,fallback,combine] [--json PATH]

A join's two halves are rarely in one chunk, and a search for the question finds the half that names its subject.
Each variant is one way a strategy could join, run as the product runs it (the run defaults, dense attention,
greedy decoding, the same chunks and BM25 index), every call counted:

  search  once     the retrieval strategy before: one search with the question's words, one call over what it found.
          answer   search again with the question and the first call's answer (ITER-RETGEN, Shao et al. 2023);
                   where that finds a chunk the first search did not, a second call over the second search's chunks.
          subject  retrieve for the entities the question names: one search with the question and the sentences that
                   give a name it names (engine.strategies.retrieval.Index.subject_query, the product's search now),
                   one call. No extra call: the subject's sentence carries the bridge (the tariff a company is billed
                   under) into the search.
  chunked  pick    the chunked strategy before: the map wording that answers or says NONE, the subject guard, a
                   reduce that picks one of the chunks' answers.
           fallback the same map answers, but where the guard keeps none the reduce gets the ones it dropped: a join's
                   answer often stands in a document that does not name the question's subject (the order number in
                   the support chat, asked of truck NW-118, which only the incident report names).
           combine a map wording that may also quote the part of the answer a chunk gives (PARTIAL), and a reduce
                   that combines the parts.

Sets: "sample" is samples/workload's lookups, joins and absent facts (probes.jsonl and kind-probes.jsonl); "heldout"
is benchmarks/route_wording.py's: the two licence texts of samples/contracts with four fees planted (lookups), four
companies' fees in two halves (joins) and two companies of whom nothing is planted (absent), text this project did
not write; "distractor" is the sample with another customer's agreement beside it (benchmarks/chunk_prompt.py's
look-alike lookups) and the sample's absent facts: what the subject guard is for.

Writes benchmarks/join_strategies-<model>.json: per question and variant the answer, whether it is right, a search's
`found_source` (every half of the source among its chunks, engine.strategies.retrieval.retrieved_source), calls and
prompt tokens; and per set a summary by plain kind.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads (engine/core/openmp.py)

import torch  # noqa: E402

from benchmarks.machine import provenance  # noqa: E402
from benchmarks.route_wording import heldout_set, sample_set  # noqa: E402
from benchmarks.chunk_prompt import DISTRACTOR, distractor_probes  # noqa: E402
from engine.attention import AttentionConfig  # noqa: E402
from engine.core.abstention import NONE, says_none  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402
from engine.core.call_plan import retrieved  # noqa: E402
from engine.core.documents import DocumentText, read_documents  # noqa: E402
from engine.core.probes import KIND_NAMES, ProbeQuestion, is_correct  # noqa: E402
from engine.core.run_settings import ANSWER_TOKENS  # noqa: E402
from engine.model.generate import generate  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.strategies import prompts, retrieval, subject_guard  # noqa: E402
from engine.strategies.chunking import split_documents  # noqa: E402
from engine.strategies.work import ComparisonWork  # noqa: E402

HERE = Path(__file__).resolve().parent
DENSE = AttentionConfig(mode="dense")
KINDS = ("retrieval", "cross_reference", "multi_hop", "absent")  # lookups, joins, and refusals a join must not lose

PARTIAL = ("Question: {question}\nIf the text answers it, answer with its words. If it gives only part of what is "
           "needed, quote the sentence that gives that part. If it says nothing of it, answer " + NONE + ".")


def combine_text(question: str, parts: list[str]) -> str:
    listed = "\n".join(f"- {p}" for p in parts) or f"- {NONE}"
    return (f"Question: {question}\nWhat different parts of the documents say:\n{listed}\n"
            "Combine them to answer the question, in the exact words given.")


class Runner:
    """One set's chunks and BM25 index, and each variant's calls on them, counted in a tally."""

    def __init__(self, lm, documents, work: ComparisonWork):
        self.lm, self.documents, self.work = lm, documents, work
        self.chunks = split_documents(documents, lm.tokenizer, work.chunk_tokens, work.chunk_overlap)
        self.index = retrieval.Index(self.chunks)

    def ask(self, text: str, tally: Counter) -> str:
        ids = prompts.chat(self.lm, text)
        tally["calls"] += 1
        tally["tokens"] += len(ids)
        return generate(self.lm, ids, DENSE, ANSWER_TOKENS).text.strip()

    def search(self, question: str, subject: bool) -> list:
        """The product's search (with the subject's sentences), or the one before: the question's words alone."""
        if subject:
            return self.index.search(question, self.work.retrieval_chunks, self.work.retrieval_tokens).chunks
        ranking = self.index.ranked(question)
        taken = retrieved([self.chunks[i].n_tokens for i in ranking], self.work.retrieval_chunks,
                          self.work.retrieval_tokens)
        return [self.chunks[i] for i in sorted(ranking[:taken])]

    def searched(self, question: str, variant: str) -> tuple[str, Counter, list]:
        """A search variant's answer, its calls, and the chunks its answer was read in."""
        tally = Counter()
        first = self.search(question, subject=variant == "subject")
        answer = self.ask(prompts.retrieval_text(first, question), tally)
        found = first
        if variant == "answer" and not says_none(answer):
            second = self.search(f"{question} {answer}", subject=False)
            if {(c.document, c.index) for c in second} - {(c.document, c.index) for c in first}:
                answer, found = self.ask(prompts.retrieval_text(second, question), tally), second
        return answer, tally, found

    def chunked(self, question: str, variants: list[str]) -> dict[str, tuple[str, Counter]]:
        """Each chunked variant's answer and calls. "pick" and "fallback" share one map pass (the same wording);
        "fallback" reduces the answers the guard dropped where it kept none."""
        texts = {d.name: d.text for d in self.documents}
        telling = subject_guard.telling_names(question, texts.values())
        maps: dict[bool, tuple[Counter, list[str], list[str]]] = {}
        for partial in dict.fromkeys(v == "combine" for v in variants):
            tally, kept, dropped = Counter(), [], []
            for chunk in self.chunks:
                ask = (f"{prompts.header(chunk)}\n{chunk.text.strip()}\n\n{PARTIAL.format(question=question)}"
                       if partial else prompts.chunk_text(chunk, question))
                answer = self.ask(ask, tally)
                if answer and not says_none(answer):
                    (dropped if subject_guard.missing(texts[chunk.document], telling) else kept).append(answer)
            maps[partial] = tally, kept, dropped
        out = {}
        for variant in variants:
            tally, kept, dropped = maps[variant == "combine"]
            tally = Counter(tally)
            if variant == "fallback" and not kept:
                kept = dropped
            reduce = combine_text(question, kept) if variant == "combine" else prompts.reduce_text(question, kept)
            out[variant] = self.ask(reduce, tally), tally
        return out


def distractor_set() -> tuple[list[DocumentText], list[ProbeQuestion]]:
    """The sample with another customer's agreement (benchmarks/chunk_prompt_distractor): lookups that name Harbor Lane
    Bakery, whose look-alike values stand in the other agreement, and the sample's absent facts. What the subject
    guard is for, so what a guard that gives way must not lose."""
    documents, probes = sample_set()
    documents += read_documents(sorted(DISTRACTOR.glob("*.txt")))
    lookups, _ = distractor_probes()
    return documents, [*lookups, *(p for p in probes if p.kind == "absent")]


SETS = {"sample": sample_set, "heldout": heldout_set, "distractor": distractor_set}


def run_set(lm, name: str, searches: list[str], chunkeds: list[str]) -> dict:
    documents, probes = SETS[name]()
    probes = [p for p in probes if p.kind in KINDS]
    runner = Runner(lm, documents, ComparisonWork(documents=documents, probes=probes))
    others = distractor_probes()[1] if name == "distractor" else {}
    rows = []
    for i, probe in enumerate(probes):
        row = {"question": probe.question, "kind": probe.kind, "expected": probe.answer}
        for variant in searches:
            output, tally, found = runner.searched(probe.question, variant)
            row[f"search_{variant}"] = {"output": output, "right": is_correct(output, probe.answer),
                                        "found_source": retrieval.retrieved_source(probe, found), **tally}
        for variant, (output, tally) in runner.chunked(probe.question, chunkeds).items():
            row[f"chunked_{variant}"] = {"output": output, "right": is_correct(output, probe.answer), **tally}
        for result in (v for v in row.values() if isinstance(v, dict) and probe.question in others):
            result["took_other"] = is_correct(result["output"], others[probe.question])
        rows.append(row)
        print(f"{name}: {i + 1}/{len(probes)} " + " ".join(f"{k}={v['right']:d}" for k, v in row.items()
                                                           if isinstance(v, dict)), file=sys.stderr, flush=True)
    variants = [f"search_{v}" for v in searches] + [f"chunked_{v}" for v in chunkeds]
    return {"chunks": len(runner.chunks), "rows": rows, "summary": summarise(rows, variants)}


def summarise(rows: list[dict], variants: list[str]) -> dict:
    """Per variant: right answers per plain kind, a search's joins with both halves found, calls and prompt tokens
    per question."""
    out = {}
    for variant in variants:
        counts = Counter()
        for row in rows:
            kind, result = KIND_NAMES[row["kind"]], row[variant]
            counts[f"{kind}_right"] += result["right"]
            counts[f"{kind}_n"] += 1
            if kind == "join" and result.get("found_source") is not None:
                counts["join_found"] += result["found_source"]
            counts["took_other"] += result.get("took_other", False)
            counts["calls"] += result["calls"]
            counts["tokens"] += result["tokens"]
        calls, tokens = counts.pop("calls"), counts.pop("tokens")
        out[variant] = {**counts, "calls_per_question": calls / len(rows), "tokens_per_question": tokens / len(rows)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--sets", default="sample,heldout")
    parser.add_argument("--search", default="once,answer,subject")
    parser.add_argument("--chunked", default="pick,fallback,combine")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    lm = load_model(args.model)
    started = datetime.now(timezone.utc)
    results = {}
    for name in args.sets.split(","):  # written after each set: a set is many minutes on a CPU
        results[name] = run_set(lm, name, [v for v in args.search.split(",") if v],
                                [v for v in args.chunked.split(",") if v])
        print(name, results[name]["summary"])
        write_json_atomic(args.json or HERE / f"join_strategies-{lm.name.lower()}.json",
                          {**provenance(lm.name, torch.__version__, started), "sets": results})


if __name__ == "__main__":
    main()
