"""Does a chunk without the answer say NONE? The chunked strategy's map prompt, in a few wordings, on the sample.

Usage: .venv/bin/python benchmarks/chunk_prompt.py [--chunk-tokens 256] [--chunk-overlap 32] [--model NAME]
       [--wordings say,guard,...] [--distractors] [--gate-probes]

Loads the default model and splits the sample workload (samples/workload) into chunks. Every retrieval probe (a
single fact; cross-reference and multi-hop answers cannot stand in one chunk) asks every chunk, in each wording
of WORDINGS, with dense attention and greedy decoding, as engine.strategies.compare's map step does. A chunk holds the
answer when its text holds the expected answer (engine.core.probes.is_correct). For each wording it reports:

  none_right    the share of chunks WITHOUT the answer whose answer says NONE (engine.core.abstention.says_none);
  answer_right  the share of chunks WITH the answer whose answer is right (and not NONE).

The best wording is the one with the highest sum of the two shares (the first listed on a tie). Then the reduce
step, with the best wording's map answers: each REDUCES wording gets the
chunk answers that are not NONE and gives the final answer; reported as right answers out of the probes. "guarded"
is the engine's reduce: the subject guard (engine.strategies.subject_guard) drops the answers of chunks whose document
does not name what the question names, then "before" reduces the rest, on the best wording's and on "say"'s map answers.

Chunks of 256 tokens by default, not the comparison's 512: the sample's four documents are about 500 tokens each,
so 512-token chunks are the documents whole and give 15 chunk-probe pairs without the answer, 256 give 55.

--distractors adds another customer's agreement (benchmarks/chunk_prompt_distractor/: the same kinds of facts,
other values) to the chunks, and its probes, which name Harbor Lane Bakery: a chunk of the other agreement
should answer NONE, and `distractor` counts the answers that took its value instead. --gate-probes adds the
retrieval probes of the sample's quality-gate set (samples/workload/gate-probes.jsonl): answers of every kind
(figures, names, dates, times, places, words), so that a wording is not chosen on five mostly numeric facts.

Writes benchmarks/chunk_prompt[-<model>][-distractors].json (chunk_prompt.json for the default run) and prints
Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads, as `python -m engine` and the worker do

import torch  # noqa: E402

from benchmarks.machine import cpu_model  # noqa: E402
from engine.strategies import prompts  # noqa: E402
from engine.strategies import subject_guard  # noqa: E402
from engine.core.abstention import says_none  # noqa: E402
from engine.attention import AttentionConfig  # noqa: E402
from engine.strategies.chunking import split_documents  # noqa: E402
from engine.core.documents import read_documents  # noqa: E402
from engine.model.generate import encode_prompt, generate  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.core.probes import ProbeQuestion, is_correct, load_probes  # noqa: E402
from engine.core.run_settings import ANSWER_TOKENS  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "samples" / "workload"
DENSE = AttentionConfig(mode="dense")

# The pieces the wordings combine: a system message for one part of the documents, and a subject guard.
PART_SYSTEM = ("You answer a question from one part of the user's documents, in a few words, quoting it exactly. "
               "When that part does not give the answer, you answer NONE.")
SAY = "Question: {question}\nIf the text does not say, answer NONE."
# The wording for numeric questions, and one for every kind of answer (a number, a name, a date, a file).
NUMBER = "Question: {question}\nAnswer with the number only. If the text does not say, answer NONE."
SHORT = prompts.CHUNK_INSTRUCTION  # the engine's since 2026-12-05, chosen by --gate-probes
# The number wording widened to every kind of answer the probes ask for.
ONLY = ("Question: {question}\nAnswer with the answer only: a number, a name, a date or a few words of the text. "
        "If the text does not say, answer NONE.")
GUARD = ("Question: {question}\nAnswer only about what the question asks: a figure the text gives for anything "
         "else is not the answer. If the text does not say, answer NONE.")
# (system message, what follows the chunk): {question} is the probe's question. "before" was the engine's until
# issue 22, "say" until "short" replaced it.
WORDINGS = {
    "before": (prompts.SYSTEM, "Question: {question}\nIf this text does not contain the answer, reply NONE."),
    "say": (prompts.SYSTEM, SAY),
    "guard": (prompts.SYSTEM, GUARD),
    "system": (PART_SYSTEM, SAY),
    "system+guard": (PART_SYSTEM, GUARD),
    "number": (prompts.SYSTEM, NUMBER),
    "short": (prompts.SYSTEM, SHORT),
    "only": (prompts.SYSTEM, ONLY),
}
DISTRACTOR = HERE / "chunk_prompt_distractor"


def distractor_probes() -> tuple[list[ProbeQuestion], dict[str, str]]:
    """The other agreement's probes (they name Harbor Lane Bakery), and for each question the other agreement's value
    for what it asks."""
    rows = [json.loads(line) for line in (DISTRACTOR / "probes.jsonl").read_text().splitlines() if line.strip()]
    return ([ProbeQuestion(row["question"], row["answer"], row["kind"]) for row in rows],
            {row["question"]: row["distractor"] for row in rows})


REDUCES = {
    "before": "Question: {question}\nAnswers found in different parts of the documents:\n{listed}\n"
              "Reply with the single best answer, in the exact words given.",
    "headers": "Question: {question}\nAnswers found in different parts of the documents, each after its part:\n"
               "{listed}\nWhich one answers the question? Reply with it in the exact words given, or NONE if "
               "none does.",
}


def ask(lm, system: str, text: str) -> str:
    return generate(lm, encode_prompt(lm, text, system=system), DENSE, ANSWER_TOKENS).text.strip()


def header(chunk, openings: dict[str, str]) -> str:
    """The engine's chunk header; with --context-chars, a later part also carries its document's opening."""
    title = f"=== {chunk.document} (part {chunk.index + 1}) ==="
    opening = openings.get(chunk.document) if chunk.index else None
    return f"{title}\n[The document opens: {opening}]" if opening else title


def map_answers(lm, chunks, probes, system: str, instruction: str, distractors: dict, openings: dict) -> list[dict]:
    rows = []
    for probe in probes:
        for chunk in chunks:
            answer = ask(lm, system, f"{header(chunk, openings)}\n{chunk.text.strip()}\n\n"
                                     + instruction.format(question=probe.question))
            rows.append({"question": probe.question, "expected": probe.answer, "chunk": header(chunk, {}),
                         "document": chunk.document,
                         "has_answer": is_correct(chunk.text, probe.answer), "answer": answer,
                         "none": says_none(answer),
                         "right": is_correct(answer, probe.answer) and not says_none(answer),
                         "distractor": probe.question in distractors
                         and is_correct(answer, distractors[probe.question])})
    return rows


def _opening(text: str, chars: int) -> str:
    """The document's first `chars` characters, cut after a word, its lines joined."""
    head = " ".join(text.strip()[:chars + 1].split())
    return head if len(text.strip()) <= chars else head.rsplit(" ", 1)[0] + " ..."


def shares(rows: list[dict]) -> dict:
    without = [r for r in rows if not r["has_answer"]]
    with_ = [r for r in rows if r["has_answer"]]
    return {"none_right": sum(r["none"] for r in without), "without": len(without),
            "answer_right": sum(r["right"] for r in with_), "with": len(with_),
            "distractor": sum(r["distractor"] for r in without)}


def score(s: dict) -> float:
    return s["none_right"] / max(s["without"], 1) + s["answer_right"] / max(s["with"], 1)


def reduce_answers(lm, probes, rows: list[dict], template: str, with_headers: bool,
                   guard: dict[str, str] | None = None) -> list[dict]:
    """The reduce step over the map answers; with guard (document name -> text), the engine's subject guard first."""
    out = []
    for probe in probes:
        found = [r for r in rows if r["question"] == probe.question and not r["none"] and r["answer"]]
        if guard is not None:
            telling = subject_guard.telling_names(probe.question, guard.values())
            found = [r for r in found if not subject_guard.missing(guard[r["document"]], telling)]
        listed = "\n".join(f"- {r['chunk']} {r['answer']}" if with_headers else f"- {r['answer']}" for r in found)
        answer = ask(lm, prompts.SYSTEM, template.format(question=probe.question, listed=listed or "- NONE"))
        out.append({"question": probe.question, "expected": probe.answer, "answers_in": len(found),
                    "answer": answer, "right": is_correct(answer, probe.answer)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunk-tokens", type=int, default=256)
    parser.add_argument("--chunk-overlap", type=int, default=32)
    parser.add_argument("--model", help="a catalogue model (default: the default model)")
    parser.add_argument("--wordings", default=",".join(WORDINGS), help=f"some of {', '.join(WORDINGS)}")
    parser.add_argument("--context-chars", type=int, default=0,
                        help="give every later part of a document its document's first this many characters")
    parser.add_argument("--distractors", action="store_true",
                        help="add another customer's agreement and probes that name the bakery")
    parser.add_argument("--gate-probes", action="store_true",
                        help="ask the retrieval probes of the sample's quality gate set too (gate-probes.jsonl)")
    args = parser.parse_args()
    wordings = {name: WORDINGS[name] for name in args.wordings.split(",")}
    lm = load_model(args.model)
    paths = sorted(SAMPLE.glob("*.txt")) + (sorted(DISTRACTOR.glob("*.txt")) if args.distractors else [])
    documents = read_documents(paths)
    chunks = split_documents(documents, lm.tokenizer, args.chunk_tokens, args.chunk_overlap)
    openings = {d.name: _opening(d.text, args.context_chars) for d in documents} if args.context_chars else {}
    probes = [p for p in load_probes(SAMPLE / "probes.jsonl") if p.kind == "retrieval"]
    distractors = {}
    if args.distractors:  # each with the other agreement's value for what it asks
        probes, distractors = distractor_probes()
    if args.gate_probes:  # 28 more single facts, whose answers are numbers, names, dates, times, places and words
        probes += [p for p in load_probes(SAMPLE / "gate-probes.jsonl") if p.kind == "retrieval"]
    start = time.perf_counter()
    maps = {}
    for name, (system, instruction) in wordings.items():
        maps[name] = map_answers(lm, chunks, probes, system, instruction, distractors, openings)
        print(f"{name}: {shares(maps[name])} ({time.perf_counter() - start:.0f} s)", flush=True)
    best = max(wordings, key=lambda name: score(shares(maps[name])))
    reduces = {name: reduce_answers(lm, probes, maps[best], template, with_headers=name == "headers")
               for name, template in REDUCES.items()}
    # The engine's reduce: "before" after the subject guard, on the best wording's and on the engine's map answers.
    texts = {d.name: d.text for d in documents}
    for name in [n for n in dict.fromkeys([best, "say"]) if n in wordings]:
        reduces[f"guarded ({name})"] = reduce_answers(lm, probes, maps[name], REDUCES["before"], False, texts)
    out = {
        "date": date.today().isoformat(), "device": f"cpu ({torch.get_num_threads()} threads)",
        "cpu_count": os.cpu_count(), "model": lm.name, "torch": torch.__version__,
        "chunk_tokens": args.chunk_tokens, "chunk_overlap": args.chunk_overlap, "chunks": len(chunks),
        "probes": len(probes), "best": best, "seconds": time.perf_counter() - start,
        "wordings": {name: {"system": s, "instruction": i, **shares(maps[name]), "rows": maps[name]}
                     for name, (s, i) in wordings.items()},
        "distractors": args.distractors, "gate_probes": args.gate_probes, "context_chars": args.context_chars,
        # Greedy answers can differ between machines through the compute dtype.
        "dtype": str(lm.model.dtype).removeprefix("torch."), "cpu": cpu_model(),
        "reduces": {name: {"template": REDUCES[name.startswith("guarded") and "before" or name],
                           "subject_guard": name.startswith("guarded"), "right": sum(r["right"] for r in rows),
                           "probes": len(rows), "rows": rows} for name, rows in reduces.items()},
    }
    suffix = ((f"-{args.model}" if args.model else "") + ("-distractors" if args.distractors else "")
              + ("-gate" if args.gate_probes else "")
              + (f"-context{args.context_chars}" if args.context_chars else ""))
    (HERE / f"chunk_prompt{suffix}.json").write_text(json.dumps(out, indent=2) + "\n")
    print(f"\n{lm.name}, {len(probes)} retrieval probes x {len(chunks)} chunks of {args.chunk_tokens} tokens, "
          f"{out['device']}, {out['date']}; best '{best}'\n")
    print("| wording | NONE on chunks without the answer | right on chunks with it | took another's value |")
    print("|---|---:|---:|---:|")
    for name in wordings:
        s = shares(maps[name])
        print(f"| {name} | {s['none_right']}/{s['without']} | {s['answer_right']}/{s['with']} | {s['distractor']} |")
    print("\n| reduce | right answers |")
    print("|---|---:|")
    for name, r in out["reduces"].items():
        print(f"| {name} | {r['right']}/{r['probes']} |")


if __name__ == "__main__":
    main()
