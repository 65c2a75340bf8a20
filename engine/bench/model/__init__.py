"""`python -m engine bench-model`: a whole decoder timed through the engine's own path.

The transformers model (random weights of a preset's shape, made on the device) with the
engine's attention registered, prefilled in chunks against a DynamicCache and decoded one
token at a time by engine.model.generate.forward, exactly as a comparison runs it. Per length and
mode: prefill seconds, decode seconds per token at that context, peak memory, and the shares
of attention, indexer and everything else (component_timer). Dense runs under each SDPA
backend the device accepts (cuDNN, flash, memory-efficient) and the fastest is named.
The JSON is written after every length; a device profile (profile.py) after the run.
"""

from __future__ import annotations

import argparse

from engine.bench.model.presets import PRESETS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", default="llama-3.1-8b", choices=list(PRESETS))
    parser.add_argument("--lengths", help="comma list, K/M suffixes allowed (default per preset)")
    parser.add_argument("--dense-max", default="128K", help="longest length where dense runs")
    parser.add_argument("--modes", default="dense,naive_sparse,index_share")
    parser.add_argument("--indexers", default="pooled,exact", help="the sparse modes run with each")
    parser.add_argument("--prefill-chunk", type=int, help="tokens per prefill forward (default per preset)")
    parser.add_argument("--decode-tokens", type=int, default=8, help="one-token forwards timed at each context")
    parser.add_argument("--answer-tokens", type=int, default=64,
                        help="tokens of an answer, for the profile's seconds per question")
    parser.add_argument("--backend", choices=["triton", "torch"], help="default: triton on CUDA, torch on the CPU")
    parser.add_argument("--device", help="cpu or cuda (default: cuda when available)")
    parser.add_argument("--check-length", type=int, default=None,
                        help="tokens where the triton and torch logits are compared (default per preset; 0: skip)")
    parser.add_argument("--budget-s", type=float, default=420.0,
                        help="start no new measurement after this many seconds; the rest are recorded as skipped")
    parser.add_argument("--out", default="benchmarks/bench_model.json", help="JSON results")
    parser.add_argument("--profile-dir", default="benchmarks/profiles",
                        help="where the device profile <device>.json goes ('' : none)")


def run(args: argparse.Namespace) -> int:
    from engine.bench.model.runner import run_bench

    return run_bench(args)
