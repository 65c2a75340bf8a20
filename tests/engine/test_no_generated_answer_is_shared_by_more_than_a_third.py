"""No answer is shared by more than a third of a generated set: on a codebase whose helpers file defines every
function, a model always answering that file's name would otherwise score (nearly) every probe."""

from collections import Counter

from engine.core.documents import DocumentText
from engine.core.probes import generate_probes, normalise

HELPERS = DocumentText("helpers.py", "".join(f"def {name}(x):\n    return x\n\n\n"
                                         for name in ("clean", "load", "parse", "render", "save", "split")))
APP = DocumentText("app.py", "from helpers import *\n\n" + "".join(
    f"{name}(rows)\n" for name in ("clean", "load", "parse", "render", "save", "split")) + "Order(rows)\n")


def test_no_answer_is_shared_by_more_than_a_third_of_the_set():
    docs = [HELPERS, APP, DocumentText("models.py", "class Order:\n    pass\n"),
            DocumentText("config.txt", "The default port is 8080.\n")]

    probes = generate_probes(docs)

    answers = Counter(normalise(p.answer) for p in probes)
    assert len(probes) >= 3 and max(answers.values()) <= len(probes) / 3
    # What is left out is the commonest answer's surplus: the rarer answers all stay.
    assert set(answers) == {"helpers py", "models py", "8080"}


def test_a_set_whose_answers_would_all_be_the_same_keeps_one_probe():
    probes = generate_probes([HELPERS, APP])

    assert [(p.answer, p.kind) for p in probes] == [("helpers.py", "cross_reference")]


def test_a_set_that_keeps_to_the_shares_is_left_whole():
    docs = [DocumentText("a.txt", "The fee is $10. The notice period is 30 days. The depot code is DX-4."),
            DocumentText("b.txt", "The rate is $10. The delivery day is Monday. The route number is 12.")]

    # $10 twice in six probes: a third, not more.
    assert [p.answer for p in generate_probes(docs)] == ["$10", "$10", "30 days", "Monday", "DX-4", "12"]
