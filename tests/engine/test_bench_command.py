"""`python -m engine bench` on the CPU: torch backend, the tiny shape, two short lengths, --quick.

The attention budget is shrunk (block 16, window 64, top-k 128: 17 blocks) so that at
1K and 2K tokens sparse attention skips most of the prefix, as it does at real lengths.
--dense-max 1K makes the 2K dense figure come from the ledger.
"""

import argparse
import dataclasses
import json
import math

import pytest
import torch

from engine import bench
from engine.core.attention_config import AttentionConfig
from engine.attention.indexers import pooled_scores
from engine.attention.layout import QueryLayout
from engine.attention.reference import GatherPlan
from engine.attention.selection import block_index
from engine.bench.flops import ledger_flops
from engine.core.errors import EngineError

README = "# Benchmarks\n\nWritten by hand.\n\n<!-- bench:start -->\nold table\n<!-- bench:end -->\n\nAlso by hand.\n"
SMALL_BUDGET = ["--block-size", "16", "--window", "64", "--topk", "128"]


def bench_args(folder, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    return parser.parse_args([
        "--device", "cpu", "--backend", "torch", "--shapes", "tiny", "--quick",
        "--out", str(folder / "bench.json"), "--readme", str(folder / "README.md"), *extra,
    ])


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench")
    (folder / "README.md").write_text(README)
    assert bench.run(bench_args(folder, "--lengths", "1K,2K", "--dense-max", "1K", *SMALL_BUDGET)) == 0
    return json.loads((folder / "bench.json").read_text()), (folder / "README.md").read_text()


def rows(report):
    return [row for shape in report["shapes"] for row in shape["lengths"]]


def test_it_reports_the_cpu_device_and_a_complete_run(finished):
    report, _ = finished
    assert report["device"] == "cpu"
    assert report["complete"] is True
    assert [row["tokens"] for row in rows(report)] == [1024, 2048]


def test_every_measurement_is_positive_and_finite(finished):
    report, _ = finished
    for row in rows(report):
        for name, record in row["measurements"].items():
            assert "skipped" not in record, (row["tokens"], name, record)
            for key in ("ms", "tflops", "flops"):
                assert math.isfinite(record[key]) and record[key] > 0, (row["tokens"], name, key, record)


def test_dense_beyond_dense_max_is_the_ledger_at_the_measured_rate(finished):
    report, _ = finished
    short, long = (row["measurements"]["dense"] for row in rows(report))
    assert short["source"] == "measured"
    assert long["source"] == "ledger"
    assert long["tflops"] == short["tflops"]


def test_sparse_counts_fewer_useful_flops_than_dense(finished):
    report, _ = finished
    for row in rows(report):
        flops = row["flops"]
        assert 0 < flops["sparse"] < flops["dense"]
        assert flops["dense"] == row["ledger"]["dense"]  # the same causal convention as the ledger


def test_index_share_needs_fewer_ledger_flops_than_naive_sparse(finished):
    report, _ = finished
    for row in rows(report):
        assert row["ledger"]["index_share_group"] < row["ledger"]["naive_sparse_group"]
        assert row["flops"]["index_share_group"] < row["flops"]["naive_sparse_group"]
        assert 0 < row["ledger_check"]["index_share_vs_predicted"]


def test_it_rewrites_the_readme_only_between_the_markers(finished):
    _, readme = finished
    head, rest = readme.split("<!-- bench:start -->")
    table, tail = rest.split("<!-- bench:end -->")
    assert head == "# Benchmarks\n\nWritten by hand.\n\n"
    assert tail == "\n\nAlso by hand.\n"
    assert "old table" not in table
    assert "cpu (" in table and "| 1K |" in table and "(ledger)" in table


@pytest.mark.parametrize("tokens", [1000, 1024, 2000])
def test_useful_flops_count_exactly_the_pairs_the_index_allows(tokens):
    cfg = AttentionConfig(block_size=16, window=64, topk=128)
    shape = bench.SHAPES["tiny"]
    layout = QueryLayout(q_len=tokens, kv_len=tokens, block_size=cfg.block_size)
    q, k = torch.randn(1, shape.heads, tokens, shape.head_dim), torch.randn(1, shape.kv_heads, tokens, shape.head_dim)
    index, _ = block_index(cfg, layout, 1, shape.kv_heads, pooled_scores(q, k, layout), "cpu")
    # Independently: the reference's own mask of allowed (query slot, key) pairs, real queries only.
    allowed = GatherPlan.from_index(index, layout).allowed & layout.real_queries("cpu")[None, None, :, :, None]
    per_query_head = int(allowed.sum()) * shape.heads // shape.kv_heads
    assert bench.useful_sparse_flops(index, layout, shape) == 4 * shape.head_dim * per_query_head


@pytest.mark.parametrize("lengths", ["0", "abc", "-4K", "8X", ","])
def test_it_rejects_lengths_that_are_not_positive_token_counts(tmp_path, lengths):
    (tmp_path / "README.md").write_text(README)
    with pytest.raises(EngineError, match="length"):
        bench.run(bench_args(tmp_path, f"--lengths={lengths}"))
    assert not (tmp_path / "bench.json").exists()


def test_it_rejects_a_readme_without_markers_before_measuring(tmp_path):
    (tmp_path / "README.md").write_text("# no markers here\n")
    with pytest.raises(EngineError, match="bench:start"):
        bench.run(bench_args(tmp_path, "--lengths", "1K"))
    assert not (tmp_path / "bench.json").exists()


@pytest.mark.parametrize("device", ["tpu", "meta", "mps", "cpu:1", "cuda:x", ""])
def test_it_rejects_a_device_it_cannot_time_on(tmp_path, device):
    (tmp_path / "README.md").write_text(README)
    with pytest.raises(EngineError, match="choose cpu, cuda or cuda:N"):
        bench.run(bench_args(tmp_path, "--lengths", "1K", f"--device={device}"))
    assert not (tmp_path / "bench.json").exists()


def test_it_rejects_a_cuda_device_that_is_not_there(tmp_path):
    (tmp_path / "README.md").write_text(README)
    missing = torch.cuda.device_count()
    with pytest.raises(EngineError, match=f"--device cuda:{missing}: "):
        bench.run(bench_args(tmp_path, "--lengths", "1K", "--device", f"cuda:{missing}"))


def test_it_makes_the_chosen_cuda_device_current_before_any_work(tmp_path, monkeypatch):
    """Triton launches on the current CUDA device, whatever device its tensors are on, and CUDA events time the
    current device's stream: --device cuda:1 must make cuda:1 current before the backend loads or anything is
    allocated. Without a GPU only that choice can be checked: torch.cuda is told of two devices, and entering
    the device context stops the run. That kernels then run on cuda:1 takes a machine with two GPUs."""
    (tmp_path / "README.md").write_text(README)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    made_current = []

    class Stop(Exception):
        pass

    class CurrentDevice:
        def __init__(self, device):
            made_current.append(device)

        def __enter__(self):
            raise Stop

        def __exit__(self, *exc_info):
            return False

    monkeypatch.setattr(torch.cuda, "device", CurrentDevice)

    with pytest.raises(Stop):
        bench.run(bench_args(tmp_path, "--lengths", "1K", "--device", "cuda:1"))
    assert made_current == [torch.device("cuda:1")]
    assert not (tmp_path / "bench.json").exists()


def test_it_rejects_a_readme_that_is_a_folder_or_not_text(tmp_path):
    (tmp_path / "README.md").write_bytes(b"\xff\xfe" + README.encode())
    with pytest.raises(EngineError, match="not UTF-8 text"):
        bench.run(bench_args(tmp_path, "--lengths", "1K"))
    with pytest.raises(EngineError, match="is a folder"):
        bench.run(bench_args(tmp_path, "--lengths", "1K", "--readme", str(tmp_path)))


def test_it_rejects_a_budget_that_is_not_a_number(tmp_path):
    (tmp_path / "README.md").write_text(README)
    with pytest.raises(EngineError, match="--budget-s must be positive, got nan"):
        bench.run(bench_args(tmp_path, "--lengths", "1K", "--budget-s", "nan"))


def test_a_failing_indexer_costs_its_lengths_but_not_the_run(tmp_path, monkeypatch):
    # An unattended GPU run: an indexer kernel that fails must still leave a report.
    def failing_scores(*args, **kwargs):
        raise RuntimeError("planted indexer failure")

    real = bench.resolve
    monkeypatch.setattr(bench, "resolve", lambda *a: dataclasses.replace(real(*a), pooled_scores=failing_scores))
    (tmp_path / "README.md").write_text(README)
    assert bench.run(bench_args(tmp_path, "--lengths", "1K,2K", *SMALL_BUDGET)) == 0
    report = json.loads((tmp_path / "bench.json").read_text())
    assert report["complete"] and len(rows(report)) == 2
    for row in rows(report):
        for record in row["measurements"].values():
            assert record["skipped"] == "failed: building the index: RuntimeError: planted indexer failure"
    assert "1K" in (tmp_path / "README.md").read_text()


def test_indexer_exact_times_and_counts_the_exact_indexer(tmp_path, monkeypatch):
    calls = []
    real = bench.resolve

    def with_counted_exact(*args):
        backend = real(*args)

        def exact_scores(*a, **kw):
            calls.append(a[2].kv_len)
            return backend.exact_scores(*a, **kw)

        return dataclasses.replace(backend, exact_scores=exact_scores)

    monkeypatch.setattr(bench, "resolve", with_counted_exact)
    (tmp_path / "README.md").write_text(README)
    assert bench.run(bench_args(tmp_path, "--lengths", "1K", "--indexer", "exact", *SMALL_BUDGET)) == 0
    report = json.loads((tmp_path / "bench.json").read_text())
    (row,) = rows(report)

    assert report["settings"]["attention"]["indexer"] == "exact" and calls and set(calls) == {1024}
    cfg = AttentionConfig(dense_layers=0, block_size=16, window=64, topk=128, indexer="exact")
    assert row["flops"]["indexer_scores"] == ledger_flops(bench.SHAPES["tiny"], cfg, 1024)["indexer"]
    pooled = ledger_flops(bench.SHAPES["tiny"], cfg.replace(indexer="pooled"), 1024)["indexer"]
    assert row["flops"]["indexer_scores"] > 10 * pooled
    assert "exact indexer" in (tmp_path / "README.md").read_text()
