"""`python -m engine bench`: the attention kernels against dense SDPA, timed on one device.

For each GQA shape and context length (batch 1, random normal inputs):
  dense             torch SDPA, FlashAttention backend, is_causal=True, enable_gqa=True
  sparse            the backend's block-sparse attention over a real index
  indexer_scores    the pooled indexer's block scores alone
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
  indexer what engine/ledger.py counts for one pooled indexer pass (selection: no FLOPs)
Beyond --dense-max, dense time is the ledger's dense FLOPs at the FLOP rate of the
longest dense run that was measured, labelled "ledger".
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import itertools
import json
import logging
import math
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from engine import ledger
from engine.attention.backends import AttentionBackend, resolve
from engine.attention.config import AttentionConfig
from engine.attention.layout import QueryLayout
from engine.attention.selection import block_index
from engine.errors import EngineError

log = logging.getLogger(__name__)

MARK_START = "<!-- bench:start -->"
MARK_END = "<!-- bench:end -->"


@dataclass(frozen=True)
class Shape:
    name: str
    heads: int
    kv_heads: int
    head_dim: int


SHAPES = {
    s.name: s
    for s in (
        Shape("llama3-8b", 32, 8, 128),
        Shape("qwen2.5-7b", 28, 4, 128),
        Shape("llama3.2-1b", 32, 8, 64),
        Shape("qwen2.5-0.5b", 14, 2, 64),
        Shape("tiny", 4, 2, 32),  # CPU smoke runs
    )
}
K, M = 1 << 10, 1 << 20
ALL_LENGTHS = tuple(8 * K << i for i in range(8))  # 8K .. 1M
# Without --lengths: every length on one shape per head dim, the targets' lengths on the
# others: 70 to 110 s of timed calls on an H200 by estimate (benchmarks/README.md).
DEFAULT_LENGTHS = {
    "llama3-8b": ALL_LENGTHS,
    "llama3.2-1b": ALL_LENGTHS,
    "qwen2.5-7b": (32 * K, 128 * K),
    "qwen2.5-0.5b": (32 * K, 128 * K),
    "tiny": (1 * K, 2 * K),
}
# Shapes with few lengths first: when the time budget runs out it cuts the longest lengths
# of the last shape, not a whole shape.
DEFAULT_SHAPES = "llama3-8b,qwen2.5-7b,qwen2.5-0.5b,llama3.2-1b"
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
MAX_LENGTH = 1 << 24

LONG_CALL_MS = 10.0
MAX_SAMPLES = 50
# Where the device reports no L2 (the CPU), assume a typical last-level cache.
NOMINAL_CACHE_BYTES = 64 << 20
MAX_INPUT_SETS = 8

TARGET_SPEEDUP_AT = 128 * K
TARGET_SPEEDUP = 10.0
TARGET_RATE_FROM = 32 * K
TARGET_RATE_SHARE = 0.5
TARGET_LEDGER_TOLERANCE = 0.2


@dataclass(frozen=True)
class Reps:
    warmup_ms: int  # do_bench's warm-up and repetition times
    rep_ms: int
    min_samples: int  # fewest timed calls for calls timed one by one


FULL_REPS = Reps(warmup_ms=25, rep_ms=100, min_samples=3)
QUICK_REPS = Reps(warmup_ms=5, rep_ms=20, min_samples=1)


@dataclass(frozen=True)
class Settings:
    device: torch.device
    dtype: torch.dtype
    backend_name: str
    shapes: tuple[Shape, ...]
    lengths: dict[str, tuple[int, ...]]
    dense_max: int
    cfg: AttentionConfig
    reps: Reps
    budget_s: float
    out: Path
    readme: Path | None


@dataclass(frozen=True)
class Timing:
    ms: float
    method: str
    samples: int | None  # None: do_bench chose the count


@dataclass
class InputSet:
    q: torch.Tensor  # [1, HQ, T, D]
    k: torch.Tensor  # [1, HKV, T, D]
    v: torch.Tensor
    index: torch.Tensor  # [1, HKV, NQB, S], built by the real indexer on q and k


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lengths", help="comma list, K/M suffixes allowed (default: per shape, 8K..1M)")
    parser.add_argument("--shapes", default=DEFAULT_SHAPES, help=f"comma list of {', '.join(SHAPES)}")
    parser.add_argument("--dtype", default="bf16", choices=list(DTYPES))
    parser.add_argument("--backend", choices=["triton", "torch"], help="default: triton on CUDA, torch on the CPU")
    parser.add_argument("--device", help="cuda or cpu (default: cuda when available)")
    parser.add_argument("--group-size", type=int, default=AttentionConfig.group_size, help="layers per group")
    parser.add_argument("--block-size", type=int, default=AttentionConfig.block_size, help="tokens per block")
    parser.add_argument("--window", type=int, default=AttentionConfig.window, help="local window, tokens")
    parser.add_argument("--topk", type=int, default=AttentionConfig.topk, help="indexer budget, tokens")
    parser.add_argument("--dense-max", default="256K", help="longest length where dense SDPA runs; beyond: ledger")
    parser.add_argument("--budget-s", type=float, default=200.0,
                        help="start no new measurement after this many seconds; the rest are recorded as skipped")
    parser.add_argument("--out", default="benchmarks/gpu_kernels.json", help="JSON results")
    parser.add_argument("--readme", help="markdown file whose bench:start/bench:end section gets the table")
    parser.add_argument("--quick", action="store_true", help="few repetitions (smoke runs)")


def run(args: argparse.Namespace) -> int:
    settings = _settings(args)
    backend = resolve(settings.backend_name, settings.device)
    torch.manual_seed(0)
    report = _new_report(settings, backend)
    started = time.monotonic()
    deadline = started + settings.budget_s
    for shape in settings.shapes:
        entry = {**dataclasses.asdict(shape), "lengths": []}
        report["shapes"].append(entry)
        for tokens in settings.lengths[shape.name]:
            row = _bench_length(settings, backend, shape, tokens, deadline)
            _fill_dense_from_ledger(row, entry["lengths"])
            row["ledger_check"] = ledger_check(row, settings.cfg.group_size)
            entry["lengths"].append(row)
            print(_progress_line(shape, row), flush=True)
            _save(report, settings)  # a run cut short by a timeout still leaves what it measured
    report.update(complete=True, elapsed_s=time.monotonic() - started, targets=targets(report))
    _save(report, settings)
    print(markdown(report))
    return 0


# --- settings -----------------------------------------------------------------------------------


def parse_length(text: str) -> int:
    """'8K' -> 8192, '1M' -> 1048576, '5000' -> 5000."""
    raw = text.strip()
    scale = {"k": K, "m": M}.get(raw[-1:].lower(), 1)
    digits = raw[:-1] if scale > 1 else raw
    if not digits.isdigit():
        raise EngineError(f"length {text!r} is not a whole number of tokens (K and M suffixes allowed)")
    value = int(digits) * scale
    if not 1 <= value <= MAX_LENGTH:
        raise EngineError(f"length {text!r} must be between 1 and {MAX_LENGTH:,} tokens")
    return value


def _settings(args: argparse.Namespace) -> Settings:
    """Every option checked before anything is allocated or timed."""
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    if device.type == "cuda" and not torch.cuda.is_available():
        raise EngineError("--device cuda: no CUDA device is visible")
    names = [n.strip() for n in args.shapes.split(",") if n.strip()]
    unknown = [n for n in names if n not in SHAPES]
    if not names or unknown:
        raise EngineError(f"unknown shape(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(SHAPES)}")
    if args.lengths is not None:
        given = tuple(sorted({parse_length(t) for t in args.lengths.split(",") if t.strip()}))
        if not given:
            raise EngineError("--lengths names no length")
        lengths = dict.fromkeys(names, given)
    else:
        lengths = {n: DEFAULT_LENGTHS[n] for n in names}
    if args.budget_s <= 0:
        raise EngineError(f"--budget-s must be positive, got {args.budget_s}")
    cfg = AttentionConfig(mode="index_share", dense_layers=0, group_size=args.group_size,
                          block_size=args.block_size, window=args.window, topk=args.topk)
    return Settings(
        device=device,
        dtype=DTYPES[args.dtype],
        backend_name=args.backend or ("triton" if device.type == "cuda" else "torch"),
        shapes=tuple(SHAPES[n] for n in names),
        lengths=lengths,
        dense_max=parse_length(args.dense_max),
        cfg=cfg,
        reps=QUICK_REPS if args.quick else FULL_REPS,
        budget_s=args.budget_s,
        out=_writable(Path(args.out)),
        readme=_readme_with_markers(Path(args.readme)) if args.readme else None,
    )


def _writable(path: Path) -> Path:
    if path.is_dir() or not path.parent.is_dir() or not os.access(path.parent, os.W_OK):
        raise EngineError(f"cannot write {path}: it is a folder, or its folder does not exist or is not writable")
    return path


def _readme_with_markers(path: Path) -> Path:
    if not path.is_file():
        raise EngineError(f"--readme {path} does not exist")
    text = path.read_text(encoding="utf-8")
    if text.count(MARK_START) != 1 or text.count(MARK_END) != 1 or text.index(MARK_START) > text.index(MARK_END):
        raise EngineError(f"--readme {path} needs one {MARK_START} line followed by one {MARK_END} line")
    return _writable(path)


# --- one length ---------------------------------------------------------------------------------

_NAMES = ("dense", "sparse", "indexer_scores", "indexer", "naive_sparse_group", "index_share_group")


def _bench_length(settings: Settings, backend: AttentionBackend, shape: Shape, tokens: int, deadline: float) -> dict:
    cfg = settings.cfg
    layout = QueryLayout(q_len=tokens, kv_len=tokens, block_size=cfg.block_size)
    row = {"tokens": tokens, "ledger": ledger_flops(shape, cfg, tokens), "flops": {"dense": dense_flops(shape, tokens)}}
    if time.monotonic() > deadline:
        return {**row, "measurements": {name: {"skipped": "time budget"} for name in _NAMES}}
    try:
        sets = _input_sets(settings, backend, shape, layout)
    except torch.OutOfMemoryError:
        log.warning("%s at %d tokens: the inputs do not fit in device memory", shape.name, tokens)
        _release(settings.device)
        return {**row, "measurements": {name: {"skipped": "out of memory"} for name in _NAMES}}
    g, indexer = cfg.group_size, row["ledger"]["indexer"]
    sparse = statistics.fmean(useful_sparse_flops(s.index, layout, shape) for s in sets)
    row["input_sets"] = len(sets)
    row["flops"].update(
        sparse=sparse,
        indexer_scores=indexer,
        indexer=indexer,
        naive_sparse_group=g * (indexer + sparse),
        index_share_group=indexer + g * sparse,
    )
    calls = _callables(settings, backend, shape, layout, sets)
    measurements = {}
    for name in _NAMES:
        if name == "dense" and tokens > settings.dense_max:
            record = {"skipped": f"beyond --dense-max ({settings.dense_max:,} tokens)"}
        else:
            record = _measure(name, calls[name], settings, deadline)
        measurements[name] = _with_rate(record, row["flops"][name])
    del sets, calls
    _release(settings.device)
    return {**row, "measurements": measurements}


def _input_sets(settings: Settings, backend: AttentionBackend, shape: Shape, layout: QueryLayout) -> list[InputSet]:
    """Random normal q, k, v (never zeros: they hide unwritten outputs and can run fast) and their real index."""
    sets = []
    for _ in range(_set_count(settings, shape, layout.kv_len)):
        q = torch.randn(1, shape.heads, layout.q_len, shape.head_dim, device=settings.device, dtype=settings.dtype)
        k, v = (torch.randn(1, shape.kv_heads, layout.kv_len, shape.head_dim, device=settings.device,
                            dtype=settings.dtype) for _ in range(2))
        scores = backend.pooled_scores(q, k, layout)
        index, _ = block_index(settings.cfg, layout, 1, shape.kv_heads, scores, settings.device)
        sets.append(InputSet(q, k, v, index))
    return sets


def _set_count(settings: Settings, shape: Shape, tokens: int) -> int:
    """Repeated calls over one buffer would time the cache: rotate until two calls' inputs exceed it twice."""
    element = torch.empty((), dtype=settings.dtype).element_size()
    per_set = (shape.heads + 2 * shape.kv_heads) * tokens * shape.head_dim * element
    if settings.device.type == "cuda":
        cache = torch.cuda.get_device_properties(settings.device).L2_cache_size
    else:
        cache = NOMINAL_CACHE_BYTES
    if per_set > 2 * cache:
        return 1
    return min(MAX_INPUT_SETS, max(2, math.ceil(2 * cache / per_set)))


def _callables(
    settings: Settings, backend: AttentionBackend, shape: Shape, layout: QueryLayout, sets: list[InputSet]
) -> dict[str, Callable[[], object]]:
    cfg, device = settings.cfg, settings.device
    scale = shape.head_dim**-0.5

    def scores(s: InputSet) -> torch.Tensor:
        return backend.pooled_scores(s.q, s.k, layout)

    def indexer(s: InputSet) -> torch.Tensor:
        return block_index(cfg, layout, 1, shape.kv_heads, scores(s), device)[0]

    def sparse(s: InputSet, index: torch.Tensor) -> torch.Tensor:
        return backend.sparse_attention(s.q, s.k, s.v, index, scale, cfg.block_size)

    def dense(s: InputSet) -> torch.Tensor:
        return F.scaled_dot_product_attention(s.q, s.k, s.v, is_causal=True, scale=scale, enable_gqa=True)

    # Each layer of a group reads its own inputs where several sets exist, as real layers do.
    layers = [sets[i % len(sets)] for i in range(cfg.group_size)]

    def naive_group() -> None:
        for s in layers:
            sparse(s, indexer(s))

    def share_group() -> None:
        shared = indexer(layers[0])
        for s in layers:
            sparse(s, shared)

    return {
        "dense": _rotating(sets, dense),
        "sparse": _rotating(sets, lambda s: sparse(s, s.index)),
        "indexer_scores": _rotating(sets, scores),
        "indexer": _rotating(sets, indexer),
        "naive_sparse_group": naive_group,
        "index_share_group": share_group,
    }


def _rotating(sets: list[InputSet], op: Callable[[InputSet], object]) -> Callable[[], object]:
    following = itertools.cycle(sets).__next__
    return lambda: op(following())


# --- timing -------------------------------------------------------------------------------------


def _measure(name: str, fn: Callable[[], object], settings: Settings, deadline: float) -> dict:
    if time.monotonic() > deadline:
        return {"skipped": "time budget"}
    # Dense runs on FlashAttention or not at all: no silent fall back to another SDPA kernel.
    kernels = sdpa_kernel(SDPBackend.FLASH_ATTENTION) if name == "dense" else contextlib.nullcontext()
    try:
        with kernels:
            timing = time_call(fn, settings.device, settings.reps)
    except torch.OutOfMemoryError:
        log.warning("%s: out of device memory", name)
        outcome = {"skipped": "out of memory"}
    except Exception as exc:  # an unattended GPU run: one failing kernel must not cost every later figure
        log.exception("%s failed", name)
        outcome = {"skipped": f"failed: {type(exc).__name__}: {str(exc)[:300]}"}
    else:
        return {"source": "measured", "ms": timing.ms, "method": timing.method, "samples": timing.samples}
    _release(settings.device)
    return outcome


def time_call(fn: Callable[[], object], device: torch.device, reps: Reps) -> Timing:
    """Median milliseconds of fn on device, warm-up (compilation, autotuning, allocation) excluded."""
    fn()
    _sync(device)
    first = _once(fn, device)
    if device.type == "cuda" and first < LONG_CALL_MS:
        from triton.testing import do_bench

        ms = do_bench(fn, warmup=reps.warmup_ms, rep=reps.rep_ms, return_mode="median")
        return Timing(ms, "triton.testing.do_bench median", None)
    n = max(reps.min_samples, min(MAX_SAMPLES, int(reps.rep_ms / max(first, 1e-3))))
    samples = [first] + [_once(fn, device) for _ in range(n - 1)]
    method = "CUDA events median" if device.type == "cuda" else "perf_counter median"
    return Timing(statistics.median(samples), method, len(samples))


def _once(fn: Callable[[], object], device: torch.device) -> float:
    if device.type == "cuda":
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)
    begin = time.perf_counter()
    fn()
    return (time.perf_counter() - begin) * 1e3


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _release(device: torch.device) -> None:
    """Hand cached blocks back (after a failure, and between lengths): the next one starts from a clean pool."""
    if device.type == "cuda":
        torch.cuda.empty_cache()


# --- FLOPs and the ledger -----------------------------------------------------------------------


def dense_flops(shape: Shape, tokens: int) -> int:
    """Causal dense attention: 4*HQ*D per (query, key) pair, T*(T+1)/2 pairs."""
    return 4 * shape.heads * shape.head_dim * tokens * (tokens + 1) // 2


def useful_sparse_flops(index: torch.Tensor, layout: QueryLayout, shape: Shape) -> int:
    """4*D per (query, key) pair the index allows, per query head (full prefill: q_len == kv_len).

    index: [1, HKV, NQB, S], -1 padding. An earlier block gives every real query of the
    query block all its keys; the diagonal block gives r*(r+1)/2 pairs for r real queries.
    """
    assert layout.q_len == layout.kv_len, "the benchmark prefills whole sequences"
    bs = layout.block_size
    qb = layout.q_blocks(index.device)[:, None]  # [NQB, 1]
    real = (layout.kv_len - qb * bs).clamp(max=bs)  # the last block may be short
    assert not bool((index > qb).any()), "an index reached past its query block"
    pairs = torch.where(index < qb, bs * real, real * (real + 1) // 2)
    pairs = torch.where(index >= 0, pairs, torch.zeros_like(pairs))
    return 4 * shape.head_dim * (shape.heads // shape.kv_heads) * int(pairs.sum())


def ledger_flops(shape: Shape, cfg: AttentionConfig, tokens: int) -> dict[str, float]:
    """What engine/ledger.py predicts for attention alone: one layer of each kind, one group of G layers."""
    layer = ledger.ModelShape(
        name=shape.name, n_layers=1, d_model=shape.heads * shape.head_dim, n_heads=shape.heads,
        n_kv_heads=shape.kv_heads, qk_dim=shape.head_dim, v_dim=shape.head_dim, kv_dim=2 * shape.head_dim,
        linear_flops_per_token=0, weight_bytes=0, vocab=0, max_positions=tokens,
        source="attention layers of the benchmark's shape",
    )
    group = dataclasses.replace(layer, n_layers=cfg.group_size)
    one_sparse = ledger.prefill_costs(layer, cfg.replace(mode="naive_sparse"), tokens)
    return {
        "dense": ledger.prefill_costs(layer, cfg.replace(mode="dense"), tokens).flops["attention"],
        "sparse": one_sparse.flops["attention"],
        "indexer": one_sparse.flops["indexer"],
        "naive_sparse_group": ledger.prefill_costs(group, cfg.replace(mode="naive_sparse"), tokens).total_flops,
        "index_share_group": ledger.prefill_costs(group, cfg.replace(mode="index_share"), tokens).total_flops,
    }


def _with_rate(record: dict, flops: float) -> dict:
    record = {**record, "flops": flops}
    if "ms" in record:
        record["tflops"] = flops / (record["ms"] * 1e-3) / 1e12
    return record


def _fill_dense_from_ledger(row: dict, earlier: list[dict]) -> None:
    """Dense time where it did not run: the ledger's FLOPs at the rate of the longest measured dense run."""
    dense = row["measurements"]["dense"]
    measured = [r for r in earlier if r["measurements"]["dense"].get("source") == "measured"]
    if "ms" in dense or not measured:
        return
    basis = measured[-1]
    rate = basis["measurements"]["dense"]["tflops"]
    flops = row["flops"]["dense"]
    row["measurements"]["dense"] = {
        "source": "ledger",
        "ms": flops / (rate * 1e12) * 1e3,
        "tflops": rate,
        "flops": flops,
        "basis": f"ledger FLOPs at the rate measured at {basis['tokens']:,} tokens",
        "not_run": dense["skipped"],
    }


def _ms(row: dict, name: str) -> float | None:
    return row["measurements"][name].get("ms")


def ledger_check(row: dict, group_size: int) -> dict:
    """The ledger's predictions next to what was measured at this length."""
    led, flops = row["ledger"], row["flops"]
    check = {
        "ledger_speedup": led["dense"] / led["sparse"],
        "ledger_index_share_vs_naive": led["index_share_group"] / led["naive_sparse_group"],
        "ledger_indexer_share_of_naive": group_size * led["indexer"] / led["naive_sparse_group"],
    }
    if "sparse" in flops:
        check["useful_sparse_vs_ledger_flops"] = flops["sparse"] / led["sparse"]
    dense, sparse = _ms(row, "dense"), _ms(row, "sparse")
    if dense and sparse:
        check["speedup"] = dense / sparse
        check["dense_source"] = row["measurements"]["dense"]["source"]
    naive, share, indexer = _ms(row, "naive_sparse_group"), _ms(row, "index_share_group"), _ms(row, "indexer")
    if naive and share:
        check["predicted_index_share_ms"] = naive * check["ledger_index_share_vs_naive"]
        check["index_share_vs_predicted"] = share / check["predicted_index_share_ms"]
    if naive and indexer:
        check["indexer_time_share_of_naive"] = group_size * indexer / naive
    return check


# --- targets ------------------------------------------------------------------------------------

TARGETS = {
    "speedup_128k": f"sparse attention >= {TARGET_SPEEDUP:g}x faster than dense SDPA at 128K",
    "rate_vs_flash": f"sparse TFLOP/s (useful) >= {TARGET_RATE_SHARE:g} x dense TFLOP/s, from 32K",
    "index_share_vs_ledger": f"index_share group time within {TARGET_LEDGER_TOLERANCE:.0%} of the ledger's prediction",
}


def targets(report: dict) -> list[dict]:
    """One row per target, shape and length where it could be evaluated."""
    rows = []
    for shape in report["shapes"]:
        for row in shape["lengths"]:
            tokens, check, m = row["tokens"], row["ledger_check"], row["measurements"]
            found = {}
            if tokens == TARGET_SPEEDUP_AT and "speedup" in check:
                found["speedup_128k"] = (check["speedup"], TARGET_SPEEDUP)
            if tokens >= TARGET_RATE_FROM and "tflops" in m["dense"] and "tflops" in m["sparse"]:
                found["rate_vs_flash"] = (m["sparse"]["tflops"] / m["dense"]["tflops"], TARGET_RATE_SHARE)
            if "index_share_vs_predicted" in check:
                found["index_share_vs_ledger"] = (check["index_share_vs_predicted"], 1.0)
            for key, (value, needed) in found.items():
                if key == "index_share_vs_ledger":
                    met, margin = abs(value - 1) <= TARGET_LEDGER_TOLERANCE, value - 1
                else:
                    met, margin = value >= needed, value / needed - 1
                rows.append({"target": key, "shape": shape["name"], "tokens": tokens, "value": value,
                             "needed": needed, "met": met, "margin": margin,
                             "dense_source": m["dense"].get("source")})
    return rows


# --- output -------------------------------------------------------------------------------------


def _new_report(settings: Settings, backend: AttentionBackend) -> dict:
    from engine.provenance import versions

    cfg = settings.cfg
    return {
        "benchmark": "python -m engine bench",
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "complete": False,
        "device": settings.device.type,
        "device_name": _device_name(settings.device),
        "versions": versions(),
        "settings": {
            "dtype": str(settings.dtype).removeprefix("torch."),
            "backend": backend.name + (" (interpreter)" if backend.interpreted else ""),
            "batch": 1,
            "attention": {**dataclasses.asdict(cfg), "budget_blocks": cfg.budget_blocks},
            "dense": "torch SDPA, FlashAttention backend only, is_causal=True, enable_gqa=True (K/V not expanded)",
            "dense_max": settings.dense_max,
            "lengths": settings.lengths,
            "reps": dataclasses.asdict(settings.reps),
            "long_call_ms": LONG_CALL_MS,
            "budget_s": settings.budget_s,
        },
        "flop_convention": (
            "4*D FLOPs per (query, key) pair and query head (QK^T and PV, a multiply-add = 2). "
            "Dense: T*(T+1)/2 pairs, causal counted as half (FlashAttention's convention). "
            "Sparse: the pairs the actual index allows, causal inside the diagonal block, padding excluded. "
            "Indexer: engine/ledger.py's count for one pooled pass; selection counts no FLOPs."
        ),
        "shapes": [],
        "targets": [],
    }


def _device_name(device: torch.device) -> str:
    if device.type != "cuda":
        return f"cpu ({torch.get_num_threads()} threads)"
    p = torch.cuda.get_device_properties(device)
    return f"{p.name} ({p.total_memory / 2**30:.0f} GiB, {p.multi_processor_count} SMs, sm_{p.major}{p.minor})"


def _save(report: dict, settings: Settings) -> None:
    _write_atomically(settings.out, json.dumps(report, indent=2) + "\n")
    if settings.readme:
        text = settings.readme.read_text(encoding="utf-8")
        head, rest = text.split(MARK_START, 1)
        _, tail = rest.split(MARK_END, 1)
        _write_atomically(settings.readme, f"{head}{MARK_START}\n{markdown(report)}\n{MARK_END}{tail}")


def _write_atomically(path: Path, text: str) -> None:
    tmp = tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", delete=False, encoding="utf-8")
    try:
        with tmp:
            tmp.write(text)
        os.replace(tmp.name, path)
    except OSError as exc:
        Path(tmp.name).unlink(missing_ok=True)
        raise EngineError(f"cannot write {path}: {exc.strerror}") from exc


def _cell(record: dict, key: str = "ms") -> str:
    if key not in record:
        reason = record.get("skipped", "")
        return "OOM" if reason == "out of memory" else "failed" if reason.startswith("failed") else "not run"
    text = _number(record[key])
    return f"{text} (ledger)" if record.get("source") == "ledger" else text


def _number(value: float) -> str:
    return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 100 else f"{value:,.0f}"


def _ratio(check: dict, key: str, suffix: str = "") -> str:
    return f"{check[key]:.2f}{suffix}" if key in check else "-"


def markdown(report: dict) -> str:
    s, v = report["settings"], report["versions"]
    a = s["attention"]
    lines = [
        f"Measured on **{report['device_name']}**, {report['date'][:10]}"
        f"{'' if report['complete'] else ' (partial: the run stopped early)'}; "
        f"torch {v['torch']}, triton {v['triton']}, CUDA {v['cuda']}, engine {v['engine']}. "
        f"{s['dtype']}, backend {s['backend']}, batch 1; block {a['block_size']}, window {a['window']}, "
        f"top-k {a['topk']}, {a['sink_blocks']} sink, {a['global_blocks']} global ({a['budget_blocks']} blocks); "
        f"group of G = {a['group_size']} layers. Times are medians in ms; TFLOP/s count useful FLOPs only.",
    ]
    for shape in report["shapes"]:
        lines += [
            "",
            f"**{shape['name']}** (HQ {shape['heads']}, HKV {shape['kv_heads']}, D {shape['head_dim']})",
            "",
            "| tokens | dense ms | dense TFLOP/s | sparse ms | sparse TFLOP/s | speedup (ledger) "
            "| indexer ms (scores alone) | naive_sparse group ms | index_share group ms | ledger-predicted ms "
            "| measured / predicted | indexer share of naive: time (ledger FLOPs) |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        lines += [_table_row(row) for row in shape["lengths"]]
    lines += ["", *_target_lines(report["targets"])]
    return "\n".join(lines)


def _table_row(row: dict) -> str:
    m, c = row["measurements"], row["ledger_check"]
    cells = [
        _tokens(row["tokens"]),
        _cell(m["dense"]),
        _cell(m["dense"], "tflops"),
        _cell(m["sparse"]),
        _cell(m["sparse"], "tflops"),
        f"{_ratio(c, 'speedup', 'x')} ({c['ledger_speedup']:.1f}x)",
        f"{_cell(m['indexer'])} ({_cell(m['indexer_scores'])})",
        _cell(m["naive_sparse_group"]),
        _cell(m["index_share_group"]),
        _number(c["predicted_index_share_ms"]) if "predicted_index_share_ms" in c else "-",
        _ratio(c, "index_share_vs_predicted"),
        f"{_percent(c, 'indexer_time_share_of_naive')} ({_percent(c, 'ledger_indexer_share_of_naive')})",
    ]
    return "| " + " | ".join(cells) + " |"


def _percent(check: dict, key: str) -> str:
    return f"{check[key]:.1%}" if key in check else "-"


def _target_lines(rows: list[dict]) -> list[str]:
    if not rows:
        return ["No target could be evaluated in this run."]
    lines = ["| target | shape | met at | worst: tokens, value (needed) | margin |", "|---|---|---:|---|---:|"]
    for key, label in TARGETS.items():
        for shape in dict.fromkeys(r["shape"] for r in rows if r["target"] == key):
            group = [r for r in rows if r["target"] == key and r["shape"] == shape]
            lines.append(f"| {label} | {shape} | {sum(r['met'] for r in group)} of {len(group)} | {_worst(key, group)}")
    return lines


def _worst(key: str, group: list[dict]) -> str:
    """'tokens: value (needed) | margin |' of the row furthest from (or least over) the target."""
    if key == "index_share_vs_ledger":
        worst = max(group, key=lambda r: abs(r["margin"]))
        needed, note = f"1 ± {TARGET_LEDGER_TOLERANCE:g}", ""
    else:
        worst = min(group, key=lambda r: r["margin"])
        needed, note = f"{worst['needed']:g}", " (dense: ledger)" if worst["dense_source"] == "ledger" else ""
    return f"{_tokens(worst['tokens'])}: {worst['value']:.2f} ({needed}){note} | {worst['margin']:+.0%} |"


def _tokens(n: int) -> str:
    return f"{n // M}M" if n % M == 0 else f"{n // K}K" if n % K == 0 else str(n)


def _progress_line(shape: Shape, row: dict) -> str:
    m = row["measurements"]
    parts = ", ".join(f"{name} {_cell(m[name])}" for name in _NAMES)
    return f"[bench] {shape.name} {_tokens(row['tokens'])}: {parts}"
