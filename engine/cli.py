"""`python -m engine ...`: the engine's command line. Other tools script against these names."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

# The kernel commands keep their flags in their own modules; importing them loads no
# Triton and touches no device.
from engine import bench as bench_command
from engine.bench import model as bench_model_command
from engine.core import run_settings
from engine.evaluation import kernel_check as check_command
from engine.attention import MODES, AttentionConfig
from engine.core.errors import EngineError
from engine.core.jsonfile import write_json_atomic
from engine.core.catalogue import DEFAULT_KEY, MODELS
from engine.core.probes import DEFAULT_LIMIT

LEDGER_MODES = ("dense", "naive_sparse", "index_share")
MODEL_HELP = (f"a catalogue model ({', '.join(MODELS)}), or a local Hugging Face folder or .gguf file "
              f"(default: ENGINE_MODEL, else {DEFAULT_KEY})")


# AttentionConfig's settings that a run does not set (engine.core.run_settings.SETTINGS has those), for the commands
# that measure attention itself.
_ENGINE_FLAGS = {
    "block_size": "query and key block, tokens",
    "dense_layers": "first layers kept dense",
    "sink_blocks": "blocks at the start every query keeps",
    "decode_reselect": "decoding re-runs the indexer every this many tokens (0: only for the question)",
    "answer_topk": "indexer budget of a prompt's last 128 tokens and each new token (when above --topk)",
}


def _add_setting_flag(parser: argparse.ArgumentParser, setting: run_settings.Setting, default) -> None:
    # The values are checked with the engine's own words (run_settings.check_values, AttentionConfig), not argparse's.
    values = f"; one of {', '.join(setting.choices)}" if setting.choices else ""
    parser.add_argument("--" + setting.name.replace("_", "-"), type=setting.kind, default=default,
                        help=f"{setting.help}{values}; default {setting.default}, as the app's runs")


def add_attention_flags(parser: argparse.ArgumentParser) -> None:
    """Attention settings; any left out keep the app's runs' defaults (run_settings.attention), or a preset's: a
    command at AttentionConfig's own (window 1,024, top-k 2,048) measured another Index Share than the app runs."""
    for setting in run_settings.SETTINGS:
        if setting.attention:
            _add_setting_flag(parser, setting, None)
    runs = run_settings.attention({})
    for name, help_text in _ENGINE_FLAGS.items():
        parser.add_argument("--" + name.replace("_", "-"), type=int, default=None,
                            help=f"{help_text}; default {getattr(runs, name)}, as the app's runs")


def attention_config(args: argparse.Namespace, mode: str, base: AttentionConfig | None = None) -> AttentionConfig:
    """The flags given, over `base` (default: the runs' attention, run_settings.attention)."""
    names = (*(s.name for s in run_settings.SETTINGS if s.attention), *_ENGINE_FLAGS)
    given = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    return (base or run_settings.attention({})).replace(mode=mode, **given)


def cmd_flops(args: argparse.Namespace) -> int:
    from engine.core import ledger

    shape = _ledger_shape(args)
    base = ledger.PRESET_ATTENTION.get(shape.name)
    if args.context < 1 or args.context > 1 << 30:
        raise EngineError(f"context must be between 1 and {1 << 30} tokens, got {args.context}")
    shared = attention_config(args, "index_share", base)
    # AttentionConfig accepts both, knowing no model; here they leave nothing to compare:
    # with no top-k the indexer selects nothing, and with every layer dense the three
    # modes are the same model.
    if shared.topk < 1:
        raise EngineError(f"top-k must be 1 token or more to compare the sparse modes, got {shared.topk}")
    if shared.dense_layers >= shape.n_layers:
        raise EngineError(
            f"dense layers must be fewer than the model's {shape.n_layers} layers, got {shared.dense_layers}"
        )
    modes = {}
    for mode in LEDGER_MODES:
        cfg = attention_config(args, mode, base)
        prefill = ledger.prefill_costs(shape, cfg, args.context)
        marginal = ledger.marginal_costs(shape, cfg, args.context)
        modes[mode] = {
            "flops_per_token": marginal.total_flops,
            "flops_prefill": prefill.total_flops,
            "per_token": marginal.to_json(),
            "prefill": prefill.to_json(),
            "indexer_layers": len(shape.plan(cfg).indexer_layers),
        }
    ratios = {
        f"{a}/{b}": {k: modes[a][k] / modes[b][k] for k in ("flops_per_token", "flops_prefill")}
        for a, b in (("naive_sparse", "index_share"), ("dense", "index_share"), ("dense", "naive_sparse"))
    }
    pays_from = ledger.index_share_pays_from(shape, shared)
    if args.json:
        report = {**modes, "ratios": ratios, "index_share_saves_10pct_from_tokens": pays_from}
        json.dump(
            {**report, "model": shape.name, "context": args.context, "source": shape.source}, sys.stdout, indent=2
        )
        print()
        return 0
    indexer = "learned (lightning)" if shape.learned_indexer else shared.indexer
    print(f"{shape.name} at {args.context:,} tokens, indexer: {indexer} ({shape.source})")
    print(f"{'mode':14} {'indexer layers':>14} {'FLOPs/token':>12} {'FLOPs prefill':>14} {'indexer share':>14}")
    for mode, row in modes.items():
        share = row["prefill"]["flops"]["indexer"] / row["flops_prefill"]
        print(
            f"{mode:14} {row['indexer_layers']:>14} {row['flops_per_token']:>12.3e} "
            f"{row['flops_prefill']:>14.3e} {share:>13.1%}"
        )
    if args.context > shape.max_positions:
        print(f"(beyond the model's {shape.max_positions:,} positions: ledger only)")
    for name, r in ratios.items():
        print(f"{name:26} per token {r['flops_per_token']:.2f}x   prefill {r['flops_prefill']:.2f}x")
    print(
        "index_share saves 10% of prefill FLOPs over naive_sparse from: "
        f"{'never' if pays_from is None else f'{pays_from:,} tokens'}"
    )
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from engine.model.generate import encode_prompt, generate
    from engine.model.loader import load_model

    prompt = _read_text(args.prompt_file)
    cfg = attention_config(args, args.mode)
    lm = load_model(args.model)
    ids = encode_prompt(lm, prompt, chat=not args.raw)
    result = generate(lm, ids, cfg, args.max_new_tokens, prefill_chunk=args.prefill_chunk)
    if args.json:
        # Overlap needs a diagnostic indexer pass in every reuse layer: its own prefill,
        # kept out of the timed run.
        if cfg.mode == "index_share":
            probe = generate(lm, ids, cfg, 0, prefill_chunk=args.prefill_chunk, measure_overlap=True)
            result.index_overlap, result.index_overlap_by_layer = probe.index_overlap, probe.index_overlap_by_layer
        json.dump({"model": lm.name, **result.to_json()}, sys.stdout, indent=2)
        print()
    else:
        print(result.text)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from engine.strategies.chunking import check_sizes
    from engine.strategies.compare import compare
    from engine.strategies.work import ComparisonWork, Prices
    from engine.core.documents import read_documents
    from engine.model.loader import load_model
    from engine.core.model_metadata import read_metadata
    from engine.core.probes import load_probes
    from engine.tables import comparison_table

    # Everything the user gave is checked before the model loads or anything runs: each run setting within its
    # limits (run_settings.check_values), as the web's form and API check them.
    work = ComparisonWork.from_settings(
        documents=read_documents(args.docs),
        probes=load_probes(args.probes),
        strategies=run_settings.check_strategies([s.strip() for s in args.strategies.split(",") if s.strip()]),
        values={setting.name: getattr(args, setting.name) for setting in run_settings.SETTINGS},
        prices=Prices(args.price_per_hour, args.api_input_price, args.api_output_price),
    )
    # The engine-only flags (block size, dense layers, sink blocks ...) over the run's attention.
    work = replace(work, attention=attention_config(args, "index_share", work.attention))
    run_settings.check_chunk_tokens(work.chunk_tokens, read_metadata(args.model).max_positions)
    check_sizes(work.chunk_tokens, work.chunk_overlap)
    out = _writable(args.json) if args.json else None
    report = compare(load_model(args.model), work, progress=_print_progress)
    print(comparison_table(report))
    if out:
        write_json_atomic(out, report)
    return 0


def cmd_needle(args: argparse.Namespace) -> int:
    from engine.evaluation import needle
    from engine.core.documents import read_documents

    base = attention_config(args, "index_share", needle.Setting("dense").base)
    # Everything the user gave is checked before the model loads.
    settings = [needle.parse_setting(s.strip(), args.budget, base) for s in args.settings.split(",") if s.strip()]
    if not settings:
        raise EngineError("name at least one setting, such as dense,index_share:mass")
    lengths = [_tokens(n) for n in args.lengths.split(",")]
    depths = [_number(d, "depth") for d in args.depths.split(",")]
    needle.check_grid(settings, lengths, depths, args.facts, args.distractors, args.hops)
    documents = read_documents(args.docs) if args.docs else needle.default_documents()
    out = _writable(args.json)
    png = _writable(args.png) if args.png else None
    from engine.model.loader import load_model

    report = needle.run_grid(load_model(args.model), documents, settings, lengths, depths, args.facts,
                             progress=lambda message: print(message, file=sys.stderr, flush=True),
                             partial=lambda so_far: write_json_atomic(out, so_far), distractors=args.distractors,
                             hops=args.hops)
    write_json_atomic(out, report)
    if png:
        from engine.evaluation.needle_plot import plot_grid

        plot_grid(report, png)
    for name, row in report["summary"].items():
        recall = "-" if row["recall"] is None else f"{row['recall']:.2f}"
        # A join's accuracy by the distance between its halves, a lookup's by the fact's depth.
        by, label = (row["by_distance"], "apart ") if "by_distance" in row else (row["by_depth"], "")
        depth_acc = " ".join(f"{label}{float(d):.0%}:{a:.0%}" for d, a in by.items())
        print(f"{name:44} acc {row['accuracy']:5.0%}  other company's fee {row['distractor_answers']:4.0%}  "
              f"recall {recall:>4}  GFLOP {row['flops'] / 1e9:8.0f}  {depth_acc}")
    return 0


def cmd_probes(args: argparse.Namespace) -> int:
    from engine.core.documents import read_documents
    from engine.core.probes import generate_probes, save_probes

    out = _writable(args.out)
    probes = generate_probes(read_documents(args.docs), args.limit)
    if not probes:
        raise EngineError("found no facts, defined terms or definitions to ask about in these documents")
    save_probes(probes, out)
    kinds = Counter(p.kind for p in probes)
    print(f"wrote {len(probes)} probes to {out}: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
    return 0


def cmd_provision(args: argparse.Namespace) -> int:
    from engine.core.catalogue import default_key, lookup
    from engine.model.speed_measurement import provision_and_time

    for key in args.model or [default_key()]:
        print(provision_and_time(lookup(key)))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from engine.model.loader import load_model
    from engine.serve import serve

    if not 0 <= args.port <= 65535:
        raise EngineError(f"port must be from 0 to 65535; got {args.port}")
    serve(load_model(args.model), attention_config(args, args.mode), args.host, args.port,
          aliases=tuple(filter(None, (args.model, os.environ.get("ENGINE_MODEL")))))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from engine.demo import run_demo

    return run_demo()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Index Share long-context engine")
    parser.add_argument("-v", "--verbose", action="store_true")
    sub = parser.add_subparsers(dest="command", required=True)

    flops = sub.add_parser("flops", help="analytic FLOPs: dense, naive sparse and index share")
    flops.add_argument("--preset", default="smollm2-135m", help="smollm2-135m, glm-5.2-like, or 'model' with --model")
    flops.add_argument("--model", help="a local model folder whose config.json to use (with --preset model)")
    flops.add_argument("--context", type=int, required=True, help="context length, tokens")
    flops.add_argument("--json", action="store_true")
    add_attention_flags(flops)
    flops.set_defaults(func=cmd_flops)

    gen = sub.add_parser("generate", help="greedy continuation of a prompt, measured")
    gen.add_argument("--mode", default="index_share", help=f"one of {', '.join(MODES)}")
    gen.add_argument("--prompt-file", required=True)
    gen.add_argument("--max-new-tokens", type=int, default=64)
    gen.add_argument("--prefill-chunk", type=int, default=None, help="prefill this many tokens at a time")
    gen.add_argument("--model", help=MODEL_HELP)
    gen.add_argument("--raw", action="store_true", help="do not wrap the prompt in the chat template")
    gen.add_argument("--json", action="store_true", help="print the measurements too")
    add_attention_flags(gen)
    gen.set_defaults(func=cmd_generate)

    prov = sub.add_parser("provision", help="convert packaged models into the cache, once, and time them")
    prov.add_argument("model", nargs="*",
                      help=f"catalogue names (default: the default model); one of {', '.join(MODELS)}")
    prov.set_defaults(func=cmd_provision)

    cmp = sub.add_parser("compare", help="chunked against full-context on your documents, measured")
    cmp.add_argument("--docs", nargs="+", required=True, help="text files of the workload")
    cmp.add_argument("--probes", required=True, help="JSONL: question, answer, optional kind")
    cmp.add_argument("--strategies", default=",".join(run_settings.DEFAULT_STRATEGIES), help="comma-separated")
    for setting in run_settings.SETTINGS:  # the attention's come with add_attention_flags
        if not setting.attention:
            _add_setting_flag(cmp, setting, setting.default)
    cmp.add_argument("--model", help=MODEL_HELP)
    prices = run_settings.CLI_PRICES
    cmp.add_argument("--price-per-hour", type=float, default=prices["per_device_hour"], help="dollars per device-hour")
    cmp.add_argument("--api-input-price", type=float, default=prices["api_input_per_mtok"],
                     help="dollars per million input tokens")
    cmp.add_argument("--api-output-price", type=float, default=prices["api_output_per_mtok"],
                     help="dollars per million output tokens")
    cmp.add_argument("--json", help="write the full report here (only once the run has finished)")
    add_attention_flags(cmp)
    cmp.set_defaults(func=cmd_compare)

    srv = sub.add_parser("serve", help="answer OpenAI chat-completion requests with the engine")
    srv.add_argument("--model", help=MODEL_HELP)
    srv.add_argument("--mode", default="index_share",
                     help=f"the attention every request runs with: one of {', '.join(MODES)}")
    srv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine "
                     "only)")
    srv.add_argument("--port", type=int, default=8000, help="0 takes a free port; the first line printed names it")
    add_attention_flags(srv)
    srv.set_defaults(func=cmd_serve)

    probes = sub.add_parser("probes", help="generate checkable probes from documents")
    probes.add_argument("--docs", nargs="+", required=True)
    probes.add_argument("--out", required=True)
    probes.add_argument("--limit", type=int, default=DEFAULT_LIMIT,
                        help=f"at most this many probes, spread over the documents and kinds (default {DEFAULT_LIMIT})")
    probes.set_defaults(func=cmd_probes)

    grid = sub.add_parser("needle", help="facts planted at several depths and lengths, asked under each setting")
    grid.add_argument("--docs", nargs="+", help="text files to plant the facts in (default: the samples')")
    grid.add_argument("--settings", default="dense,index_share:pooled_mass+doc",
                      help="comma-separated: dense, sliding_window, or mode:indexer (index_share:mass); index_share's "
                           "indexer may end in +doc (anchors calibrated on each prompt, as runs do on their documents) "
                           "or +cal (on the model's calibration text); @0.125 gives a setting its own budget share, "
                           "@fixed the attention flags' own top-k at every length; a trailing +cached asks from the "
                           "documents' cached prefix")
    grid.add_argument("--lengths", default="2048,4096,8000", help="prompt lengths, tokens (2K, 4K also read)")
    grid.add_argument("--depths", default="0.1,0.3,0.5,0.7,0.9",
                      help="where the fact sits, shares of the text; with --hops 2 the first half sits at the first "
                           "depth and the second half at each later one")
    grid.add_argument("--facts", type=int, default=2, help="facts asked in each (length, depth) cell")
    grid.add_argument("--distractors", type=int, default=0,
                      help="facts of the same shape about other companies planted in each prompt (0 to 7)")
    grid.add_argument("--hops", type=int, default=1,
                      help="1: each fact in one sentence; 2: in two halves, a company's tariff and that tariff's fee, "
                           "asked as the company's fee (accuracy against the distance between the halves)")
    grid.add_argument("--budget", type=float, default=0.25, help="sparse budget, share of the prompt's length")
    grid.add_argument("--model", help=MODEL_HELP)
    grid.add_argument("--json", required=True, help="write the report here")
    grid.add_argument("--png", help="write the accuracy heat map here")
    add_attention_flags(grid)
    grid.set_defaults(func=cmd_needle)

    demo = sub.add_parser("demo", help="a real comparison of the attention modes on sample text")
    demo.set_defaults(func=cmd_demo)

    check = sub.add_parser("check", help="compare a backend's attention kernels with a float64 reference")
    check_command.add_arguments(check)
    check.set_defaults(func=check_command.run)

    bench = sub.add_parser("bench", help="time dense, sparse, indexer and a layer group on one GPU")
    bench_command.add_arguments(bench)
    bench.set_defaults(func=bench_command.run)

    bench_model = sub.add_parser("bench-model", help="time a whole decoder (random weights) per length and mode")
    bench_model_command.add_arguments(bench_model)
    bench_model.set_defaults(func=bench_model_command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    if not args.verbose:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    try:
        return args.func(args)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _ledger_shape(args: argparse.Namespace):
    from engine.core import ledger

    if args.model and args.preset != "model":
        raise EngineError("--model is used only with --preset model: add --preset model")
    if args.preset == "model":
        if not args.model:
            raise EngineError("--preset model needs --model PATH")
        from engine.model.loader import read_config

        return ledger.from_hf_config(read_config(args.model), name=Path(args.model).name)
    if args.preset not in ledger.PRESETS:
        raise EngineError(f"unknown preset {args.preset!r}; choose one of {', '.join(ledger.PRESETS)}, model")
    return ledger.PRESETS[args.preset]


def _print_progress(done: int, planned: int, message: str) -> None:
    print(f"[{done + 1}/{planned}] {message}", file=sys.stderr, flush=True)


def _writable(path: str) -> Path:
    """The output path, checked before any work: its folder exists and it is not a folder."""
    p = Path(path)
    if p.is_dir() or not p.parent.is_dir():
        raise EngineError(f"cannot write {path}: {'it is a folder' if p.is_dir() else 'its folder does not exist'}")
    if not os.access(p.parent, os.W_OK):
        raise EngineError(f"cannot write {path}: its folder is not writable")
    return p


def _read_text(path: str) -> str:
    p = Path(path)
    if p.is_dir():
        raise EngineError(f"prompt file {path} is a directory: name a text file")
    if not p.is_file():
        raise EngineError(f"prompt file {path} {'is not a regular file' if p.exists() else 'does not exist'}")
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise EngineError(f"prompt file {path} is not UTF-8 text") from exc
    except OSError as exc:
        raise EngineError(f"prompt file {path} cannot be read: {exc.strerror}") from exc


def _tokens(text: str) -> int:
    """A token count: 4096, or 4K meaning 4096."""
    t = text.strip().upper()
    try:
        return int(t[:-1]) * 1024 if t.endswith("K") else int(t)
    except ValueError:
        raise EngineError(f"not a token count: {text!r}") from None


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise EngineError(f"not a {what}: {text!r}") from None
