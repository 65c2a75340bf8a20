"""`engine probes --limit N` writes at most N probes (30 without it), with their passages, and refuses N below 1."""

import pytest

from engine.cli import main
from engine.core.probes import load_probes

# 40 facts: "The item aa code is X-0." to "The item bt code is X-39."
FACTS = " ".join(f"The item {a}{b} code is X-{20 * i + j}."
                 for i, a in enumerate("ab") for j, b in enumerate("abcdefghijklmnopqrst"))


@pytest.fixture
def doc(tmp_path):
    (tmp_path / "doc.txt").write_text(FACTS)
    return tmp_path / "doc.txt"


def test_it_writes_thirty_probes_unless_told_how_many(capsys, doc, tmp_path):
    assert main(["probes", "--docs", str(doc), "--out", str(tmp_path / "p.jsonl")]) == 0
    assert len(load_probes(tmp_path / "p.jsonl")) == 30

    assert main(["probes", "--docs", str(doc), "--out", str(tmp_path / "p.jsonl"), "--limit", "3"]) == 0
    probes = load_probes(tmp_path / "p.jsonl")
    assert [(p.answer, p.passage) for p in probes] == [
        ("X-0", "The item aa code is X-0."), ("X-1", "The item ab code is X-1."), ("X-2", "The item ac code is X-2.")]
    assert "wrote 3 probes" in capsys.readouterr().out


def test_it_refuses_a_limit_below_one_and_writes_nothing(capsys, doc, tmp_path):
    assert main(["probes", "--docs", str(doc), "--out", str(tmp_path / "p.jsonl"), "--limit", "0"]) == 2
    assert "the number of probes to generate must be at least 1, got 0" in capsys.readouterr().err
    assert not (tmp_path / "p.jsonl").exists()
