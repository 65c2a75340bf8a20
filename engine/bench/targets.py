"""The benchmark's targets, evaluated on a finished report."""

from __future__ import annotations

from engine.bench.bench_options import K

TARGET_SPEEDUP_AT = 128 * K
TARGET_SPEEDUP = 10.0
TARGET_RATE_FROM = 32 * K
TARGET_RATE_SHARE = 0.5
TARGET_LEDGER_TOLERANCE = 0.2

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
