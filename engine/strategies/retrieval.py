"""BM25 search over a comparison's chunks, the chunks a question gets, and whether they hold its source. Torch-free.

The retrieval strategies search the same chunks the chunked strategy asks one by one (engine.strategies.chunking), so
the strategies differ only in what they do with them. The index is built once per comparison over the chunks' texts;
each question is one query against it.

Why bm25s (0.3.16) rather than rank-bm25: bm25s is maintained (releases through 2026) and scores from a sparse
matrix precomputed at indexing with numpy alone, where rank-bm25 (last release 2022) loops over every document in
Python for every query. Neither needs torch, so the web process may import this module.

Tokenising: bm25s's own tokenizer, lowercased words of two or more letters or digits with its English stop words
removed, and no stemmer (a stemmer would be one more dependency, PyStemmer, for little on questions that name
their subject). Question words the chunks never use are dropped, and a question left with none scores every
chunk 0: ties keep the chunks' document order.

A question that names its subject ("What monthly fee does Ilvesta Tiles pay?") is searched with the sentences that
name it added (`subject_query`): a join's halves are a sentence that names the subject and one that does not ("Ilvesta
Tiles is billed under tariff T-17." early in one document, "The monthly fee under tariff T-17 is 5075 euros." late in
another), and the question's own words find the first half and every look-alike of the second. The subject's
sentence carries the bridge ("T-17") into the search. It is the issue's "retrieve for every entity the question
names", chosen by measurement (benchmarks/join_strategies.py) over searching again with the first call's answer
(ITER-RETGEN), which never searched anywhere new: the model reads its answer in the chunks it was given, so the
answer's words find them again. On held-out licence texts with four joins planted, both halves were found for 2 of 4
joins by the question alone and 4 of 4 with the subject's sentences, and the model answered 3 against 1, at no extra
call. A name is the subject guard's (engine.strategies.subject_guard.names), one some sentence gives; a name
more than SUBJECT_SENTENCES sentences give ("Northwind" in Northwind's own documents) is the documents' topic rather
than a subject, and its sentences would drown the question, so it adds none.

How many chunks a question gets is engine.core.call_plan.retrieved's rule, which the planning projects with: `count`
when it is set (above 0), else as many of the best-ranked as fit `budget` tokens together, and one at least. They
go to the model in document order, not rank order, so that text that runs on from one chunk into the next still
reads in order.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.core.call_plan import retrieved
from engine.core.probes import PASSAGE_JOIN, SOURCE_JOIN, ProbeQuestion
from engine.strategies import subject_guard
from engine.strategies.chunking import Chunk

# A name given by more sentences than this is the documents' topic, not a question's subject (see the docstring).
SUBJECT_SENTENCES = 3
# Sentences end at ., ! or ? before a space, or at a paragraph break.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")


@dataclass(frozen=True)
class Search:
    chunks: list[Chunk]  # the chunks the question gets, in document order
    cpu_seconds: float  # process CPU time the search took


class Index:
    """A BM25 index over chunks' texts, built once; `search` answers one question at a time."""

    def __init__(self, chunks: Sequence[Chunk]):
        if not chunks:
            raise ValueError("there are no chunks to index")
        # Imported here, not at the top: the lent GPU machine's image installs nothing and has no bm25s, and the
        # full-context strategies it measures import this module without searching.
        import bm25s
        from bm25s.tokenization import Tokenizer

        # bm25s sets its own logger to DEBUG as it is imported, which would put a line per index and per search
        # through the CLI's and the worker's handlers; the application's level decides again.
        logging.getLogger("bm25s").setLevel(logging.NOTSET)
        start = time.process_time()
        self.chunks = list(chunks)
        self._tokenizer = Tokenizer(stopwords="en")
        self._bm25 = bm25s.BM25()
        self._bm25.index(self._tokenizer.tokenize([c.text for c in self.chunks], return_as="tuple",
                                                  show_progress=False), show_progress=False)
        # Overlapping chunks repeat sentences: each is kept once.
        self.sentences = list(dict.fromkeys(s.strip() for c in self.chunks for s in _SENTENCE_END.split(c.text)
                                            if s.strip()))
        # A search is one thread's work, so its process CPU time is the time it holds the machine: it is not
        # divided by torch's threads as the Meter divides a forward pass's.
        self.cpu_seconds = time.process_time() - start

    def ranked(self, question: str) -> list[int]:
        """Positions of every chunk, best first; equal scores keep document order."""
        # update_vocab=False: a query must not grow the index's vocabulary; words it lacks are dropped.
        ids = self._tokenizer.tokenize([question], update_vocab=False, return_as="ids", show_progress=False)[0]
        scores = self._bm25.get_scores(ids)
        return list(np.argsort(-scores, kind="stable"))

    def search(self, question: str, count: int, budget: int) -> Search:
        """The chunks for `question`, searched with its subject's sentences (`subject_query`): `count` of them if
        count > 0, else the best that fit `budget` tokens."""
        start = time.process_time()
        ranking = self.ranked(self.subject_query(question))
        chosen = retrieved([self.chunks[i].n_tokens for i in ranking], count, budget)
        positions = sorted(ranking[:chosen])
        return Search([self.chunks[i] for i in positions], time.process_time() - start)

    def subject_query(self, question: str) -> str:
        """The question, then the sentences that give each name it names, for the names at most SUBJECT_SENTENCES
        sentences give."""
        added: list[str] = []
        for name in subject_guard.names(question):
            giving = [s for s in self.sentences if not subject_guard.missing(s, [name])]
            if len(giving) <= SUBJECT_SENTENCES:
                added += giving
        return " ".join([question, *dict.fromkeys(added)])


def retrieved_source(probe: ProbeQuestion, chunks: Sequence[Chunk]) -> bool | None:
    """Whether the chunks hold the probe's source; None when the probe names none, or asks what no document says (an
    absent probe's source is only the fact it was modelled on).

    With a passage (generated probes keep the sentences the answer comes from), every sentence of it must stand in
    a retrieved chunk, whitespace normalised: a multi-hop passage keeps one per hop, so both hops must be found.
    Without one, every source document ("a.txt + b.txt" for multi-hop) must have a chunk among them.
    """
    if not probe.source or probe.kind == "absent":
        return None
    if probe.passage:
        texts = [_spaced(c.text) for c in chunks]
        return all(any(_spaced(part) in text for text in texts) for part in probe.passage.split(PASSAGE_JOIN))
    found = {c.document for c in chunks}
    return all(name.strip() in found for name in probe.source.split(SOURCE_JOIN))


def recall(found: Sequence[bool | None]) -> float | None:
    """The share of probes with a source whose source was retrieved; None when no probe has a source."""
    judged = [f for f in found if f is not None]
    return sum(judged) / len(judged) if judged else None


def _spaced(text: str) -> str:
    return " ".join(text.split())
