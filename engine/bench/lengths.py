"""One length of one shape: its input sets, the callables it times, and each one measured."""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from engine.attention.backends import AttentionBackend
from engine.attention.layout import QueryLayout
from engine.attention.selection import block_index
from engine.bench.flops import dense_flops, ledger_flops, useful_sparse_flops, with_rate
from engine.bench.bench_options import Settings, Shape
from engine.bench.timing import release, time_call

log = logging.getLogger(__package__)  # "engine.bench", the name its warnings carry

# Where the device reports no L2 (the CPU), assume a typical last-level cache.
NOMINAL_CACHE_BYTES = 64 << 20
MAX_INPUT_SETS = 8

NAMES = ("dense", "sparse", "indexer_scores", "indexer", "naive_sparse_group", "index_share_group")


@dataclass
class InputSet:
    q: torch.Tensor  # [1, HQ, T, D]
    k: torch.Tensor  # [1, HKV, T, D]
    v: torch.Tensor
    index: torch.Tensor  # [1, HKV, NQB, S], built by the real indexer on q and k


def bench_length(settings: Settings, backend: AttentionBackend, shape: Shape, tokens: int, deadline: float) -> dict:
    cfg = settings.cfg
    layout = QueryLayout(q_len=tokens, kv_len=tokens, block_size=cfg.block_size)
    row = {"tokens": tokens, "ledger": ledger_flops(shape, cfg, tokens), "flops": {"dense": dense_flops(shape, tokens)}}
    if time.monotonic() > deadline:
        return {**row, "measurements": {name: {"skipped": "time budget"} for name in NAMES}}
    try:
        sets = _input_sets(settings, backend, shape, layout)
    except torch.OutOfMemoryError:
        log.warning("%s at %d tokens: the inputs do not fit in device memory", shape.name, tokens)
        release(settings.device)
        return {**row, "measurements": {name: {"skipped": "out of memory"} for name in NAMES}}
    except Exception as exc:  # the indexer that builds the index failed: later lengths and shapes still run
        log.exception("%s at %d tokens: building the inputs and their index failed", shape.name, tokens)
        release(settings.device)
        reason = f"failed: building the index: {type(exc).__name__}: {str(exc)[:300]}"
        return {**row, "measurements": {name: {"skipped": reason} for name in NAMES}}
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
    for name in NAMES:
        if name == "dense" and tokens > settings.dense_max:
            record = {"skipped": f"beyond --dense-max ({settings.dense_max:,} tokens)"}
        else:
            record = _measure(name, calls[name], settings, deadline)
        measurements[name] = with_rate(record, row["flops"][name])
    del sets, calls
    release(settings.device)
    return {**row, "measurements": measurements}


def _input_sets(settings: Settings, backend: AttentionBackend, shape: Shape, layout: QueryLayout) -> list[InputSet]:
    """Random normal q, k, v (never zeros: they hide unwritten outputs and can run fast) and their real index.

    The index comes from the pooled indexer whichever one is timed: any real selection
    costs the attention the same, and the exact one would take as long as dense attention
    for every set.
    """
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
        return backend.scorer(cfg.indexer)(s.q, s.k, layout)

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
    release(settings.device)
    return outcome
