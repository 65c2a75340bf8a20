"""A needle grid reports after every prompt: its summary holds the cells run so far, and the heat map leaves the
others blank; a join grid's (--hops 2) too, by the distance between each fact's halves."""

from engine.evaluation.needle import summarise
from engine.evaluation.needle_plot import plot_grid


def _row(length, depth, correct):
    return {"setting": "dense", "length": length, "depth": depth, "correct": correct, "recall": None, "flops": 1.0}


def test_the_summary_counts_only_the_cells_that_ran():
    rows = [_row(2048, 0.1, True), _row(2048, 0.5, False), _row(4096, 0.1, True)]
    summary = summarise(rows)["dense"]
    assert summary["cells"] == {"2048@0.1": 1.0, "2048@0.5": 0.0, "4096@0.1": 1.0}
    assert summary["by_length"] == {"2048": 0.5, "4096": 1.0}
    assert summary["by_depth"] == {"0.1": 1.0, "0.5": 0.0}
    assert summary["accuracy"] == 2 / 3


def test_the_heat_map_of_a_partial_grid_is_written(tmp_path):
    rows = [_row(2048, 0.1, True), _row(4096, 0.5, False)]
    report = {"summary": summarise(rows), "lengths": [2048, 4096, 8000], "depths": [0.1, 0.5], "model": "m",
              "facts_per_cell": 1, "date": "2026-12-05"}
    plot_grid(report, tmp_path / "grid.png")
    assert (tmp_path / "grid.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _join_row(length, distance, correct):
    return {**_row(length, 0.1 + distance, correct), "first_depth": 0.1, "distance": distance,
            "distance_tokens": int(distance * length)}


def test_a_stopped_join_grid_summarises_the_distances_that_ran(tmp_path):
    rows = [_join_row(2048, 0.2, True), _join_row(2048, 0.8, False), _join_row(4096, 0.2, False)]
    summary = summarise(rows)["dense"]
    assert summary["by_distance"] == {"0.2": 0.5, "0.8": 0.0}
    assert summary["distance_cells"] == {"2048@0.2": 1.0, "2048@0.8": 0.0, "4096@0.2": 0.0}
    assert summary["distance_tokens"] == {"2048@0.2": 409, "2048@0.8": 1638, "4096@0.2": 819}
    report = {"summary": summarise(rows), "lengths": [2048, 4096, 8000], "depths": [0.1, 0.3, 0.9],
              "distances": [0.2, 0.8], "hops": 2, "model": "m", "facts_per_cell": 1, "date": "2026-12-07"}
    plot_grid(report, tmp_path / "joins.png")
    assert (tmp_path / "joins.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_lookup_summary_has_no_distances():
    assert "by_distance" not in summarise([_row(2048, 0.1, True)])["dense"]
