"""`python -m engine bench`: the attention kernels against dense SDPA, timed on one device.

For each GQA shape and context length (batch 1, random normal inputs):
  dense             torch SDPA, FlashAttention backend, is_causal=True, enable_gqa=True
  sparse            the backend's block-sparse attention over a real index
  indexer_scores    the indexer's block scores alone (--indexer: pooled by default, or exact)
  indexer           scores then block selection (top-k and the index), what a group leader runs
  naive_sparse_group  G x (indexer + sparse attention): one callable, a real sequence of launches
  index_share_group   1 x indexer + G x sparse attention over the shared index

Timing. CUDA: one untimed call first (compilation, autotuning, allocator), then
triton.testing.do_bench(return_mode="median"), which times each call with events
after flushing the L2. do_bench always spends six calls estimating before it times
any; for a call over LONG_CALL_MS that would blow the lease, so such calls are timed
one by one with events instead (median of at least `min_samples`). CPU: perf_counter
around each call, median. Inputs that fit in cache rotate over several random sets.

FLOPs (one multiply-add = 2 FLOPs, QK^T and PV both counted, so 4*D per (query, key) pair
and query head):
  dense   4*HQ*D*T*(T+1)/2: causal counted as half, FlashAttention's convention
  sparse  useful FLOPs only: 4*D*(HQ/HKV) * the (query, key) pairs the actual index
          allows, causal inside the diagonal block counted exactly, padding excluded
  indexer what engine/core/ledger.py counts for one pass of the indexer (selection: no FLOPs)
Beyond --dense-max, dense time is the ledger's dense FLOPs at the FLOP rate of the
longest dense run that was measured, labelled "ledger".
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import time

import torch

from engine.attention.backends import resolve
from engine.core.attention_config import INDEXERS, AttentionConfig
from engine.bench.flops import fill_dense_from_ledger, ledger_check, useful_sparse_flops
from engine.bench.lengths import bench_length
from engine.bench.report import new_report, save
from engine.bench.bench_options import DEFAULT_SHAPES, DTYPES, SHAPES, Settings, settings_from_args
from engine.bench.table import markdown, progress_line
from engine.bench.targets import targets

__all__ = ["SHAPES", "add_arguments", "run", "useful_sparse_flops"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lengths", help="comma list, K/M suffixes allowed (default: per shape, 8K..1M)")
    parser.add_argument("--shapes", default=DEFAULT_SHAPES, help=f"comma list of {', '.join(SHAPES)}")
    parser.add_argument("--dtype", default="bf16", choices=list(DTYPES))
    parser.add_argument("--backend", choices=["triton", "torch"], help="default: triton on CUDA, torch on the CPU")
    parser.add_argument("--device", help="cpu, cuda or cuda:N (default: cuda when available)")
    parser.add_argument("--group-size", type=int, default=AttentionConfig.group_size, help="layers per group")
    parser.add_argument("--block-size", type=int, default=AttentionConfig.block_size, help="tokens per block")
    parser.add_argument("--window", type=int, default=AttentionConfig.window, help="local window, tokens")
    parser.add_argument("--topk", type=int, default=AttentionConfig.topk, help="indexer budget, tokens")
    parser.add_argument("--indexer", default=AttentionConfig.indexer, choices=INDEXERS,
                        help="the indexer timed and counted (exact costs about as much as dense attention)")
    parser.add_argument("--dense-max", default="256K", help="longest length where dense SDPA runs; beyond: ledger")
    parser.add_argument("--budget-s", type=float, default=200.0,
                        help="start no new measurement after this many seconds; the rest are recorded as skipped")
    parser.add_argument("--out", default="benchmarks/gpu_kernels.json", help="JSON results")
    parser.add_argument("--readme", help="markdown file whose bench:start/bench:end section gets the table")
    parser.add_argument("--quick", action="store_true", help="few repetitions (smoke runs)")


def run(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    # The tensors go to settings.device by name, but Triton launches its kernels on the current CUDA device, and
    # CUDA events, do_bench's synchronize and empty_cache use that one too: on cuda:N it must be the current one.
    with torch.cuda.device(settings.device) if settings.device.type == "cuda" else contextlib.nullcontext():
        return _run(settings)


def _run(settings: Settings) -> int:
    backend = resolve(settings.backend_name, settings.device)
    torch.manual_seed(0)
    report = new_report(settings, backend)
    started = time.monotonic()
    deadline = started + settings.budget_s
    for shape in settings.shapes:
        entry = {**dataclasses.asdict(shape), "lengths": []}
        report["shapes"].append(entry)
        for tokens in settings.lengths[shape.name]:
            row = bench_length(settings, backend, shape, tokens, deadline)
            fill_dense_from_ledger(row, entry["lengths"])
            row["ledger_check"] = ledger_check(row, settings.cfg.group_size)
            entry["lengths"].append(row)
            print(progress_line(shape, row), flush=True)
            save(report, settings)  # a run cut short by a timeout still leaves what it measured
    report.update(complete=True, elapsed_s=time.monotonic() - started, targets=targets(report))
    save(report, settings)
    print(markdown(report))
    return 0
