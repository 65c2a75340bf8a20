"""Each generated probe keeps its passage, the sentence(s) its answer was taken from, as a reader sees them: for
multi-hop both sentences, for a cross-reference the defining sentence. probes.jsonl carries it."""

from engine.core.documents import DocumentText
from engine.core.probes import generate_probes, load_probes, save_probes

DOCS = [
    DocumentText("contract.txt", 'Scope.\n\n"Delivery Window" means the two-hour period\nagreed for each store. The '
                             "account manager of Northwind is Dana Reyes. The fee is $4,500[1].\n"),
    DocumentText("directory.txt", "Staff. Dana Reyes's phone extension is 4412. Deliveries keep the Delivery "
                              "Window.\n"),
]


def test_each_generated_probe_keeps_the_sentences_its_answer_comes_from():
    passages = {p.question: p.passage for p in generate_probes(DOCS)}

    assert passages == {
        "What is the account manager of Northwind?": "The account manager of Northwind is Dana Reyes.",
        "What is the fee?": "The fee is $4,500.",
        'Which document defines the term "Delivery Window" that directory.txt uses?':
            '"Delivery Window" means the two-hour period agreed for each store.',
        "What is the phone extension of the account manager of Northwind?":
            "The account manager of Northwind is Dana Reyes. … Dana Reyes's phone extension is 4412.",
    }


def test_the_passage_is_saved_and_loaded_back(tmp_path):
    probes = generate_probes(DOCS)
    save_probes(probes, tmp_path / "probes.jsonl")

    assert [p.passage for p in load_probes(tmp_path / "probes.jsonl")] == [p.passage for p in probes]
