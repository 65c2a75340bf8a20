"""The markdown table of a report, and the progress line printed after each length."""

from __future__ import annotations

from engine.bench.lengths import NAMES
from engine.bench.bench_options import K, M, Shape
from engine.bench.targets import TARGET_LEDGER_TOLERANCE, TARGETS


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
        f"{a['indexer']} indexer, group of G = {a['group_size']} layers. Times are medians in ms; TFLOP/s count "
        "useful FLOPs only.",
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


def progress_line(shape: Shape, row: dict) -> str:
    m = row["measurements"]
    parts = ", ".join(f"{name} {_cell(m[name])}" for name in NAMES)
    return f"[bench] {shape.name} {_tokens(row['tokens'])}: {parts}"
