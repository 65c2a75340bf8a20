"""`engine compare` prints each strategy's right answers per kind of question, named as a manager reads them (both
stored kinds of join are one), with the Wilson interval; a run of one kind prints no second table."""

from engine.tables import kinds_table


def answers(*pairs):
    return [{"kind": kind, "correct": correct} for kind, correct in pairs]


def test_each_strategy_is_counted_per_plain_kind():
    report = {"strategies": {
        "chunked": {"probes": answers(("retrieval", True), ("retrieval", True), ("multi_hop", False),
                                      ("cross_reference", False), ("absent", True))},
        "full_dense": {"probes": answers(("retrieval", True), ("retrieval", False), ("multi_hop", True),
                                         ("cross_reference", True), ("absent", False))},
        "full_index_share": {"refused": "too long"},
    }}
    header, columns, chunked, dense = kinds_table(report)
    assert columns.split() == ["strategy", "lookup", "join", "absent"]
    assert chunked.split()[:4] == ["chunked", "2/2", "(34%-100%)", "0/2"]
    assert dense.split()[:6] == ["full_dense", "1/2", "(9%-91%)", "2/2", "(34%-100%)", "0/1"]


def test_one_kind_needs_no_second_table():
    report = {"strategies": {"retrieval": {"probes": answers(("retrieval", True), ("retrieval", False))}}}
    assert kinds_table(report) == []
