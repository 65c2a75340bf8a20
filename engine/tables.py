"""Readable tables of a comparison report, for the terminal."""

from __future__ import annotations

from engine.core import stats
from engine.core.probes import KIND_NAMES, PLAIN_KINDS


def comparison_table(report: dict) -> str:
    """One row per strategy: what it cost, at what rate, and how well it answered, with the uncertainty."""
    lines = [
        f"{report['model']} on {report['device']}; {sum(d['tokens'] for d in report['documents']):,} document tokens, "
        f"{report['chunks']} chunks; seconds are {report['seconds_basis']}",
        (f"{'strategy':20} {'calls':>5} {'tokens in':>9} {'seconds':>8} {'wall s':>8} {'TFLOP':>6} "
         f"{'s/TFLOP (range)':>17} {'$ device':>9} {'$ API':>8} {'accuracy (95% CI)':>17} {'F1':>4} "
         f"{'gate':>11}  note"),
    ]
    for name, s in report["strategies"].items():
        if "refused" in s:
            lines.append(f"{name:20} refused: {s['refused']}")
            continue
        q, rate = s["quality"], s["rate"]
        lo, hi = q["ci95"]
        spread = f"{rate['median']:.1f} ({rate['min']:.1f}-{rate['max']:.1f})"
        accuracy = f"{q['accuracy']:.0%} ({lo:.0%}-{hi:.0%})"
        notes = []
        if q["probes_to_tell"] is not None:
            notes.append(f"about {q['probes_to_tell']} probes would tell")
        if q["top1_agreement"] is not None:
            notes.append(f"top-1 vs dense {q['top1_agreement']:.2f}")
        if q["index_overlap"] is not None:
            notes.append(f"index overlap {q['index_overlap']:.2f}")
        if s.get("retrieval_recall") is not None:
            notes.append(f"source retrieved {s['retrieval_recall']:.0%}")
        if "escalated" in s:
            notes.append(f"escalated {s['escalated']} ({s['escalated_share']:.0%}), "
                         f"{s['escalation_refused']} of them refused")
        lines.append(
            f"{name:20} {s['calls']:>5} {s['tokens_in']:>9,} {s['seconds']:>8.1f} {s['wall_seconds']:>8.1f} "
            f"{s['flops']['total'] / 1e12:>6.2f} "
            f"{spread:>17} "
            f"{s['cost']['device_dollars']:>9.5f} {s['cost']['api_dollars']:>8.5f} "
            f"{accuracy:>17} {q['f1']:>4.2f} {q['gate']:>11}  {', '.join(notes)}"
        )
    lines += kinds_table(report)
    prices = report["prices"]
    lines.append(
        f"prices: ${prices['per_device_hour']}/device-hour; API ${prices['api_input_per_mtok']} in, "
        f"${prices['api_output_per_mtok']} out per million tokens"
    )
    return "\n".join(lines)


def kinds_table(report: dict) -> list[str]:
    """Each strategy's right answers per kind of question, as a manager names them (lookup, join, count, absent),
    with the Wilson 95% interval; nothing where every question is of one kind (the table above says it all)."""
    ran = {name: stats.by_kind(s["probes"], KIND_NAMES) for name, s in report["strategies"].items() if "probes" in s}
    kinds = [k for k in PLAIN_KINDS if any(k in cells for cells in ran.values())]
    if len(kinds) < 2:
        return []
    lines = ["right answers by kind of question (95% CI):",
             f"{'strategy':20} " + " ".join(f"{kind:>17}" for kind in kinds)]
    for name, cells in ran.items():
        shown = [f"{c['correct']}/{c['n']} ({c['ci95'][0]:.0%}-{c['ci95'][1]:.0%})" if (c := cells.get(k)) else "-"
                 for k in kinds]
        lines.append(f"{name:20} " + " ".join(f"{cell:>17}" for cell in shown))
    return lines
