"""The JSON report: its skeleton, and saving it (and the README section between the markers)."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import torch

from engine.attention.backends import AttentionBackend
from engine.bench.bench_options import MARK_END, MARK_START, Settings
from engine.bench.table import markdown
from engine.bench.timing import LONG_CALL_MS
from engine.core.jsonfile import write_json_atomic, write_text_atomic


def new_report(settings: Settings, backend: AttentionBackend) -> dict:
    from engine.model.provenance import versions

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
            f"Indexer: engine/core/ledger.py's count for one {cfg.indexer} pass; selection counts no FLOPs."
        ),
        "shapes": [],
        "targets": [],
    }


def _device_name(device: torch.device) -> str:
    if device.type != "cuda":
        return f"cpu ({torch.get_num_threads()} threads)"
    p = torch.cuda.get_device_properties(device)
    return f"{p.name} ({p.total_memory / 2**30:.0f} GiB, {p.multi_processor_count} SMs, sm_{p.major}{p.minor})"


def save(report: dict, settings: Settings) -> None:
    write_json_atomic(settings.out, report)
    if settings.readme:
        text = settings.readme.read_text(encoding="utf-8")
        head, rest = text.split(MARK_START, 1)
        _, tail = rest.split(MARK_END, 1)
        write_text_atomic(settings.readme, f"{head}{MARK_START}\n{markdown(report)}\n{MARK_END}{tail}")

