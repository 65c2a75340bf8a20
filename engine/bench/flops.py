"""FLOPs: dense, useful sparse and the ledger's; rates, dense from the ledger, the ledger check."""

from __future__ import annotations

import dataclasses

import torch

from engine.core import ledger
from engine.core.attention_config import AttentionConfig
from engine.attention.layout import QueryLayout
from engine.bench.bench_options import Shape


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
    """What engine/core/ledger.py predicts for attention alone: one layer of each kind, one group of G layers."""
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


def with_rate(record: dict, flops: float) -> dict:
    record = {**record, "flops": flops}
    if "ms" in record:
        record["tflops"] = flops / (record["ms"] * 1e-3) / 1e12
    return record


def fill_dense_from_ledger(row: dict, earlier: list[dict]) -> None:
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
