"""The chunked strategy's subject guard: a chunk's answer stands only where its document names what the question names.

A map call sees one chunk. Asked for Harbor Lane Bakery's fee, a chunk of another customer's agreement holds a fee
too, and the models here give it rather than NONE (benchmarks/chunk_prompt.py --distractors: the default model took
the other customer's value in 3 of 6 questions with the wording that finds most answers; no wording of seven both
found the answers and refused the other customer's). A wording cannot fix it: the chunk alone does not say whose fee
it is once the customer's name is a page back.

So the guard reads the workload, not the model. The question's names are its runs of capitalised words after the
first word ("Harbor Lane Bakery", "Northwind"), and a name counts where some document of the workload gives it
(a name no document gives, "Celsius" where the text writes °C, tells no document from another). An answer from a
document that lacks one of those names is dropped before the reduce call, and the report keeps it with the reason,
unless every answer would be dropped: then the reduce reads them (engine.strategies.compare.guarded_map), since a
join's answer may stand only in a document that does not name the question's subject.

Limits, said plainly: a question that names nothing is not guarded; two customers in one document are not told
apart; a document that calls its customer only "the Customer" loses its answers to a question that names it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# A word: letters, digits, and the joiners names use (O'Neil, NW-118, A&B). Punctuation between words ends a name.
_WORD = re.compile(r"[A-Za-z0-9][\w'&-]*")
_CLAUSE = re.compile(r"[.?!:;,()\"]+")


def names(question: str) -> list[str]:
    """The question's names: maximal runs of capitalised words within a clause, not counting a sentence's first
    word, possessives cut."""
    runs = []
    for sentence in re.split(r"[.?!]+\s", question):
        for i, clause in enumerate(_CLAUSE.split(sentence)):
            run = []
            for word in _WORD.findall(clause)[1 if i == 0 else 0:]:
                if word[0].isupper():
                    run.append(re.sub(r"'s$", "", word))
                elif run:
                    runs.append(" ".join(run))
                    run = []
            if run:
                runs.append(" ".join(run))
    return list(dict.fromkeys(runs))


def _gives(text: str, name: str) -> bool:
    return re.search(r"(?<!\w)" + r"\s+".join(map(re.escape, name.split())) + r"(?!\w)", text, re.IGNORECASE) is not None


def telling_names(question: str, documents: Iterable[str]) -> list[str]:
    """The question's names that some document gives: the ones that can tell a document about them from another."""
    texts = list(documents)
    return [name for name in names(question) if any(_gives(text, name) for text in texts)]


def missing(document: str, telling: Iterable[str]) -> list[str]:
    """The telling names this document does not give: an answer from it is about something else."""
    return [name for name in telling if not _gives(document, name)]
