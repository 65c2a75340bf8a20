"""What changed between two runs' documents names a few of each kind and counts the rest."""

from types import SimpleNamespace

from workloads.documents.document_sets import change, described, run_change


def _documents(*names: str, digest: str = "a") -> list[dict]:
    return [{"name": name, "tokens": 10, "sha256": digest * 64} for name in names]


def test_a_long_list_of_names_is_cut_to_three_and_a_count():
    added = [f"contract-{n:02d}.pdf" for n in range(12)]

    assert change(_documents("terms.txt"), _documents("terms.txt", *added)) == (
        "documents: 12 added (contract-00.pdf, contract-01.pdf, contract-02.pdf and 9 more); 10 → 130 tokens")


def test_the_same_names_with_new_text_are_changed_and_a_run_without_documents_compares_with_nothing():
    assert change(_documents("a.txt", "b.txt"), _documents("a.txt", "b.txt", digest="b")) == (
        "documents: 2 changed (a.txt, b.txt); 20 → 20 tokens")
    assert change(_documents("a.txt"), _documents("a.txt")) is None
    assert change(None, _documents("a.txt")) is None
    assert (described(_documents("a.txt")), described(None)) == ("1 document, 10 tokens", "not recorded")


def test_one_token_is_singular_and_thousands_are_grouped():
    one = [{"name": "blank.txt", "tokens": 1, "sha256": "a" * 64}]
    many = [{"name": "book.txt", "tokens": 12_345, "sha256": "a" * 64}]

    assert (described(one), described(many)) == ("1 document, 1 token", "1 document, 12,345 tokens")


def test_between_runs_a_missing_list_is_said_and_blamed_on_the_run_without_one():
    listed, unlisted = SimpleNamespace(pk=7, documents=_documents("a.txt")), SimpleNamespace(pk=8, documents=None)
    edited = SimpleNamespace(pk=9, documents=_documents("a.txt", digest="b"))

    assert run_change(listed, unlisted) == "documents: not known, run 8 kept no list of its documents"
    assert run_change(unlisted, listed) == "documents: not known, run 8 kept no list of its documents"
    assert run_change(listed, edited) == "documents: 1 changed (a.txt); 10 → 10 tokens"
    assert run_change(listed, listed) is None
