"""Readable tables of a comparison report, for the terminal."""

from __future__ import annotations


def comparison_table(report: dict) -> str:
    """One row per strategy: what it cost and how well it answered."""
    lines = [
        f"{report['model']} on {report['device']}; {sum(d['tokens'] for d in report['documents']):,} document tokens, "
        f"{report['chunks']} chunks",
        (f"{'strategy':20} {'calls':>5} {'tokens in':>9} {'device s':>9} {'TFLOP':>8} {'$ device':>9} "
         f"{'$ API':>8} {'accuracy':>8}  note"),
    ]
    for name, s in report["strategies"].items():
        if "refused" in s:
            lines.append(f"{name:20} refused: {s['refused']}")
            continue
        q = s["quality"]
        notes = []
        if q["gated"]:
            notes.append("quality-gated")
        if q["top1_agreement"] is not None:
            notes.append(f"top-1 vs dense {q['top1_agreement']:.2f}")
        if q["index_overlap"] is not None:
            notes.append(f"index overlap {q['index_overlap']:.2f}")
        lines.append(
            f"{name:20} {s['calls']:>5} {s['tokens_in']:>9,} {s['seconds']:>9.1f} {s['flops']['total'] / 1e12:>8.2f} "
            f"{s['cost']['device_dollars']:>9.5f} {s['cost']['api_dollars']:>8.5f} "
            f"{q['accuracy']:>8.0%}  {', '.join(notes)}"
        )
    prices = report["prices"]
    lines.append(
        f"prices: ${prices['per_device_hour']}/device-hour; API ${prices['api_input_per_mtok']} in, "
        f"${prices['api_output_per_mtok']} out per million tokens"
    )
    return "\n".join(lines)
