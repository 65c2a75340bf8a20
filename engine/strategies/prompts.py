"""The prompts a comparison's calls send: whole documents and a question, a chunk and a question, the chunks a search
found, and the reduce over the chunks' answers. Each is a user message (`*_text`), sent as it is to an endpoint
(engine.strategies.endpoint_compare), and as token ids in the model's chat template to the local engine (`*_prompt`).
Every strategy's prompts share the system message and the chat template, so their lengths differ only by what each
strategy puts in them."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.documents import DocumentText
from engine.model.generate import check_length, encode_prompt
from engine.model.loader import LoadedModel
from engine.core.abstention import NONE
from engine.strategies.chunking import Chunk

# Measured on the sample workload with SmolLM2 and dense attention: 5 of 9 probes right
# with this system message, 3 of 9 with the question before and after the documents,
# 1 of 9 with neither.
SYSTEM = "You answer questions about the user's documents in a few words, quoting them exactly."
# The chunked map step's ("short" in benchmarks/chunk_prompt.py), one wording for every kind of answer. On the 33
# single-fact probes of the sample's gate set and 5 that name the bakery (answers of every kind: figures, names,
# dates, times, places), asked of every 256-token chunk of the sample and of another customer's agreement, the
# default model said NONE on 300 of 329 chunks without the answer and answered 21 of 51 chunks with it, against 304
# and 16 with the wording before ("If the text does not say, answer NONE."; 1 and 0 answers took the other
# customer's value); the guarded reduce then got 12 of 38 right against 9 (bf16, 2026-12-05). SmolLM2's reduce got
# 4 of 38 with either. "Answer with the number only" did no better than the wording before, and fits only figures.
CHUNK_INSTRUCTION = ("Question: {question}\nAnswer with the words of the text that answer it, and nothing else. If "
                     f"the text does not say, or says it only of someone or something else, answer {NONE}.")


def chat(lm: LoadedModel, content: str) -> list[int]:
    return encode_prompt(lm, content, system=SYSTEM)


def header(chunk: Chunk) -> str:
    return f"=== {chunk.document} (part {chunk.index + 1}) ==="


def documents_text(documents: Sequence[DocumentText]) -> str:
    return "\n\n".join(f"=== {d.name} ===\n{d.text.strip()}" for d in documents)


def documents_prompt(lm: LoadedModel, documents: Sequence[DocumentText]) -> list[int]:
    """The documents as a whole-document prompt lays them out, without a question: what anchors=workload
    calibrates on (engine.evaluation.calibration.for_run)."""
    return chat(lm, documents_text(documents))


def documents_ids(lm: LoadedModel, documents: Sequence[DocumentText]) -> list[int]:
    """The documents' text alone, no chat template: what the diagnostics' top-1 agreement reads."""
    ids = lm.tokenizer(documents_text(documents))["input_ids"]
    check_length(lm, len(ids), "the documents")
    return ids


def full_text(documents: Sequence[DocumentText], question: str) -> str:
    return f"{documents_text(documents)}\n\nQuestion: {question}"


def retrieval_text(chunks: Sequence[Chunk], question: str, instruction: str = "") -> str:
    """The chunks found, in document order under their headers, then the question and, for routed, its routing
    instruction (engine.strategies.routing)."""
    found = "\n\n".join(f"{header(c)}\n{c.text.strip()}" for c in chunks)
    return f"{found}\n\nQuestion: {question}" + (f"\n{instruction}" if instruction else "")


def chunk_text(chunk: Chunk, question: str) -> str:
    return f"{header(chunk)}\n{chunk.text.strip()}\n\n{CHUNK_INSTRUCTION.format(question=question)}"


def reduce_text(question: str, answers: list[str]) -> str:
    # Listing each answer under its chunk's header, and asking for the one that answers, was measured too
    # (benchmarks/chunk_prompt.py, "headers"): 0 of 5 right on the sample against 1 of 5 with this wording.
    listed = "\n".join(f"- {a}" for a in answers) or f"- {NONE}"
    return (f"Question: {question}\nAnswers found in different parts of the documents:\n{listed}\n"
            "Reply with the single best answer, in the exact words given.")


def full_prompt(lm: LoadedModel, documents: Sequence[DocumentText], question: str) -> list[int]:
    return chat(lm, full_text(documents, question))


def retrieval_prompt(lm: LoadedModel, chunks: Sequence[Chunk], question: str, instruction: str = "") -> list[int]:
    return chat(lm, retrieval_text(chunks, question, instruction))


def chunk_prompt(lm: LoadedModel, chunk: Chunk, question: str) -> list[int]:
    return chat(lm, chunk_text(chunk, question))


def reduce_prompt(lm: LoadedModel, question: str, answers: list[str]) -> list[int]:
    return chat(lm, reduce_text(question, answers))
