"""The default model's prefill and decode per attention mode at 4K to 32K tokens of real text, on this CPU.

Usage: .venv/bin/python benchmarks/cpu_long_context.py [--lengths 4096 8192 16384 32704] [--rounds 3]
       [--decode-tokens 8] [--index-share-topk 1024 ...] [--json benchmarks/cpu_long_context.json]
       .venv/bin/python benchmarks/cpu_long_context.py --profile-from benchmarks/cpu_long_context.json

Dense, naive sparse and Index Share at the runs' defaults (engine.core.run_settings: window 256, top-k 256, 2 strided
global blocks, the pooled_mass indexer, groups of 4; uniform groups, as calibrated anchors change where the groups
start, not how many there are); `--index-share-topk` adds Index Share at other top-k budgets, a budget policy's
candidates. The text is samples/contracts, repeated to length. Every round runs every length
and, within it, every variant in turn (interleaved), each a fresh prefill then `--decode-tokens` one-token forwards at
the end of the context. Times are computed CPU seconds (process CPU time / torch's threads, engine.model.measure), which
the machine's load moves far less than the wall clock; each is reported as min, median and max over the rounds,
with peak resident memory above the start, and each mode's median ratio to dense beside the ledger's FLOP ratio.

One more Index Share prefill per length runs under torch.profiler after the timed rounds, for the share of its time
spent in the indexer and in selection (the ranges engine.attention.state names): profiling slows the call, so
only the shares are kept from it.

The medians of the three modes at the runs' defaults also become the CPU's device profile
(benchmarks/profiles/cpu.json, engine.core.device_profile), with each point's ledger FLOPs: the planning page projects a
CPU worker's cost at each length from it. `--profile-from` writes that profile from an earlier report alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads (engine/core/openmp.py)

import torch  # noqa: E402
import transformers  # noqa: E402

from benchmarks.cpu_prefill import real_text_ids  # noqa: E402
from benchmarks.machine import cpu_model  # noqa: E402
from engine.core import ledger, run_settings  # noqa: E402
from engine.attention import AttentionConfig  # noqa: E402
from engine.core.device_profile import PROFILE_DIR, make_profile, point, save_profile  # noqa: E402
from engine.model.generate import generate  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402
from engine.model.measure import device_name  # noqa: E402
from engine.core.catalogue import MODELS, model_dir  # noqa: E402
from engine.core.model_metadata import read_metadata  # noqa: E402
from engine.model.loader import load_model  # noqa: E402

HERE = Path(__file__).resolve().parent
MODES = ("dense", "naive_sparse", "index_share")
RANGES = ("costplanner.indexer", "costplanner.selection")


def run_config(mode: str, topk: int | None = None) -> AttentionConfig:
    """The runs' own attention settings (engine.core.run_settings), top-k overridden when given."""
    return run_settings.attention({"topk": topk}, mode)


def variants(extra_topks: list[int]) -> dict[str, AttentionConfig]:
    """The variants a round runs, by name: the three modes at the runs' defaults, then Index Share at each extra
    top-k ("index_share@1024")."""
    return {mode: run_config(mode) for mode in MODES} | {
        f"index_share@{t}": run_config("index_share", t) for t in extra_topks}


def spread(values: list[float]) -> dict:
    return {"min": min(values), "median": statistics.median(values), "max": max(values), "all": values}


def profiled_shares(lm, ids: list[int]) -> dict:
    """Share of one Index Share prefill's time (run defaults) in the indexer and in selection."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        result = generate(lm, ids, run_config("index_share"), max_new_tokens=0)
    totals = {e.key: e.cpu_time_total / 1e6 for e in prof.key_averages() if e.key in RANGES}
    whole = result.prefill.seconds  # wall clock of the profiled call: the ranges are wall-clock too
    return {name.removeprefix("costplanner."): totals.get(name, 0.0) / whole for name in RANGES} | {
        "profiled_prefill_wall_s": whole}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lengths", type=int, nargs="+", default=[4096, 8192, 16384, 32704])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--decode-tokens", type=int, default=8)
    parser.add_argument("--index-share-topk", type=int, nargs="*", default=[],
                        help="also run Index Share at these top-k budgets (tokens)")
    parser.add_argument("--json", type=Path, default=HERE / "cpu_long_context.json")
    parser.add_argument("--profile-from", type=Path, help="only write the CPU profile of this earlier report")
    args = parser.parse_args()
    if args.profile_from:
        print(save_profile(cpu_profile(json.loads(args.profile_from.read_text())), PROFILE_DIR))
        return

    lm = load_model()
    shape = ledger.from_hf_config(lm.config, lm.name)
    runs = variants(args.index_share_topk)
    texts = {n: real_text_ids(lm, n) for n in args.lengths}
    generate(lm, texts[args.lengths[0]][:256], runs["index_share"], 2)  # warm up allocator and kernels
    timed: dict[tuple[int, str], dict[str, list[float]]] = {}
    for r in range(args.rounds):
        for n in args.lengths:
            for name, cfg in runs.items():
                result = generate(lm, texts[n], cfg, max_new_tokens=args.decode_tokens + 1)
                t = timed.setdefault((n, name), {"prefill": [], "decode": [], "peak": []})
                t["prefill"].append(result.prefill.cpu_seconds)
                t["decode"].append(result.decode.cpu_seconds / max(1, result.decode_forwards))
                t["peak"].append(result.prefill.peak_memory_bytes / 2**20)
                print(f"round {r + 1}, {n} tokens, {name}: prefill {t['prefill'][-1]:.2f} s, "
                      f"decode {t['decode'][-1]:.3f} s/token", flush=True)
    rows = []
    for n in args.lengths:
        dense = {k: statistics.median(v) for k, v in timed[n, "dense"].items()}
        dense_prefill = ledger.prefill_costs(shape, runs["dense"], n).total_flops
        dense_decode = ledger.marginal_costs(shape, runs["dense"], n).total_flops
        for name, cfg in runs.items():
            t = timed[n, name]
            prefill_flops = ledger.prefill_costs(shape, cfg, n).total_flops
            rows.append({
                "tokens": n, "mode": name, "budget_tokens": None if cfg.mode == "dense" else cfg.budget_tokens,
                "prefill_s": spread(t["prefill"]), "decode_s_per_token": spread(t["decode"]),
                "peak_mib": max(t["peak"]),
                "prefill_speedup": dense["prefill"] / statistics.median(t["prefill"]),
                "decode_speedup": dense["decode"] / statistics.median(t["decode"]),
                "ledger_prefill_speedup": dense_prefill / prefill_flops,
                "ledger_decode_speedup": dense_decode / ledger.marginal_costs(shape, cfg, n).total_flops,
                "prefill_gflops": prefill_flops / 1e9,
            })
            if name == "index_share":
                print(f"{n} tokens: profiling Index Share's prefill", flush=True)
                rows[-1]["shares"] = profiled_shares(lm, texts[n])

    report = {
        "date": datetime.now(timezone.utc).isoformat(timespec="minutes"),
        "device": f"{cpu_model()}, {device_name(torch.device('cpu'))}",
        "torch": torch.__version__, "transformers": transformers.__version__,
        "model": lm.name, "dtype": str(lm.model.dtype).removeprefix("torch."),
        "attention": {name: cfg.__dict__ for name, cfg in runs.items()},
        "rounds": args.rounds, "decode_tokens": args.decode_tokens,
        "basis": "computed CPU seconds (process CPU time / torch threads); speedups are dense's median / the mode's",
        "rows": rows,
    }
    write_json_atomic(args.json, report)
    save_profile(cpu_profile(report), PROFILE_DIR)
    print(f"\nDevice: {report['device']}; {lm.name}; median (min-max) of {args.rounds} interleaved rounds\n")
    print(table(report))


def cpu_profile(report: dict) -> dict:
    """The three modes' medians at the runs' defaults as the CPU's device profile, each point with its ledger FLOPs
    at the settings it ran with (the report's). A report from before the answer's own top-k existed ran without one:
    its settings carry no answer_topk, so it is 0 here, not today's default."""
    entry = next(m for m in MODELS.values() if m.display_name == report["model"])
    shape = ledger.from_metadata(read_metadata(model_dir(entry)), entry.key)
    strategies: dict[str, dict[str, dict]] = {}
    for row in report["rows"]:
        if row["mode"] not in MODES:
            continue
        cfg = AttentionConfig(**{"answer_topk": 0, **report["attention"][row["mode"]]})
        n = row["tokens"]
        key = "dense" if cfg.mode == "dense" else f"{cfg.mode}:{cfg.indexer}"
        strategies.setdefault(key, {})[str(n)] = point(
            row["prefill_s"]["median"], row["decode_s_per_token"]["median"], int(row["peak_mib"] * 2**20),
            run_settings.ANSWER_TOKENS, prefill_flops=ledger.prefill_costs(shape, cfg, n).total_flops,
            decode_flops_per_token=ledger.marginal_costs(shape, cfg, n).total_flops)
    cpu, threads = report["device"].rsplit(", ", 1)
    return make_profile(f"{threads}: {cpu}", report["date"],
                        {"torch": report["torch"], "transformers": report["transformers"], "dtype": report["dtype"]},
                        entry.key, run_settings.ANSWER_TOKENS, "benchmarks/cpu_long_context.py", strategies)


def table(report: dict) -> str:
    header = ("| tokens | variant | prefill s | vs dense (ledger) | decode s/token | vs dense (ledger) | peak MiB "
              "| indexer, selection |")
    lines = [header, "|---:|---|---:|---:|---:|---:|---:|---:|"]
    for r in report["rows"]:
        p, d = r["prefill_s"], r["decode_s_per_token"]
        shares = r.get("shares")
        lines.append(
            f"| {r['tokens']} | {r['mode']} | {p['median']:.2f} ({p['min']:.2f}-{p['max']:.2f}) | "
            f"{r['prefill_speedup']:.2f}x ({r['ledger_prefill_speedup']:.2f}x) | "
            f"{d['median']:.3f} ({d['min']:.3f}-{d['max']:.3f}) | "
            f"{r['decode_speedup']:.2f}x ({r['ledger_decode_speedup']:.2f}x) | {r['peak_mib']:.0f} | "
            + (f"{shares['indexer']:.0%}, {shares['selection']:.0%} |" if shares else "|"))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
