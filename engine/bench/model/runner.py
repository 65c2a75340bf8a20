"""The whole-model bench's run: variants per length, each measured and written as it finishes."""

from __future__ import annotations

import argparse
import contextlib
import logging
import time
from datetime import datetime, timezone
from pathlib import Path

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from transformers import AutoModelForCausalLM

from engine.attention import AttentionConfig, LayerPlan
from engine.core.attention_config import INDEXERS
from engine.bench.model.component_timer import TimedAttention
from engine.bench.model.logits_check import logits_check
from engine.bench.model.presets import ATTENTION, DEFAULT_CHUNK, DEFAULT_LENGTHS, model_config
from engine.core.device_profile import write_profile
from engine.bench.bench_options import parse_length
from engine.core.errors import EngineError
from engine.model.generate import forward
from engine.core.jsonfile import write_json_atomic
from engine.model.measure import Meter, device_name
from engine.model import hf_attention
from engine.model.kv_cache import appending_cache
from engine.model.loader import LoadedModel

log = logging.getLogger(__name__)

# Dense on CUDA: each backend SDPA may pick, alone, so that the fastest can be named.
_DENSE_BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
                   "efficient": SDPBackend.EFFICIENT_ATTENTION}
_SPARSE_MODES = ("naive_sparse", "index_share")


def run_bench(args: argparse.Namespace) -> int:
    s = _settings(args)
    torch.manual_seed(0)
    lm = build_model(args.preset, max(s["lengths"]), s["device"])
    report = {
        "benchmark": "python -m engine bench-model",
        "preset": args.preset,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "complete": False,
        "device": device_name(s["device"]),
        "versions": _versions(),
        "settings": {k: v if isinstance(v, (int, float, str, list, type(None))) else str(v)
                     for k, v in s.items() if k != "base"},
        "attention": {**s["base"].__dict__},
        "method": (
            "random bf16 weights made on the device (transformers from_config); one forward per prefill chunk "
            "against a DynamicCache that appends in place (engine.model.kv_cache), then decode_tokens one-token "
            "forwards, through engine.model.generate.forward. "
            "Seconds: CUDA events (CPU: perf_counter). Shares: events around every attention call and around "
            "the indexer (scores + selection) inside them; other = forward - attention. Each variant runs once "
            "untimed at the first length's first two chunks first (compilation, autotuning)."
        ),
        "check": {"skipped": "not run yet"},
        "lengths": [],
    }
    _save(report, s)
    report["check"] = (logits_check(lm, s["base"], s["check_length"],
                                    [m for m in s["modes"] if m != "dense"], s["indexers"]) if s["check_length"]
                       else {"skipped": "--check-length 0"})
    _save(report, s)
    deadline = time.monotonic() + s["budget_s"]
    warmed: set[str] = set()
    for tokens in s["lengths"]:
        row = {"tokens": tokens, "variants": {}}
        report["lengths"].append(row)
        for name, cfg, dense_backend in variants(s, tokens):
            if time.monotonic() > deadline:
                row["variants"][name] = {"skipped": f"past --budget-s ({s['budget_s']:.0f} s)"}
                continue
            try:
                if name not in warmed:
                    measure(lm, cfg, min(tokens, 2 * s["chunk"]), s["chunk"], 1, dense_backend, s["backend"])
                    warmed.add(name)
                row["variants"][name] = measure(lm, cfg, tokens, s["chunk"], s["decode_tokens"], dense_backend,
                                                s["backend"])
            except (torch.OutOfMemoryError, RuntimeError) as error:  # an unavailable SDPA backend, memory
                row["variants"][name] = {"failed": f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"}
            _release(s["device"])
            _save(report, s)  # a run cut short keeps every variant measured so far
        row["dense_best"] = _fastest_dense(row["variants"])
        _save(report, s)
    report["complete"] = True
    _save(report, s)
    if s["profile_dir"]:
        report["profile"] = str(write_profile(report, s["profile_dir"], s["answer_tokens"]))
        _save(report, s)
    return 0


def build_model(preset: str, longest: int, device: torch.device) -> LoadedModel:
    """The preset's decoder with random bf16 weights, allocated and initialised on `device`."""
    config = model_config(preset, longest)
    with torch.device(device):
        model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16,
                                                 attn_implementation=hf_attention.register())
    return LoadedModel(model=model.eval(), tokenizer=None, name=preset)


def variants(s: dict, tokens: int):
    """(name, attention config, dense SDPA backend or None) for each variant run at `tokens`."""
    base: AttentionConfig = s["base"]
    if "dense" in s["modes"] and tokens <= s["dense_max"]:
        if s["device"].type == "cuda":
            for label, backend in _DENSE_BACKENDS.items():
                yield f"dense:{label}", base.replace(mode="dense"), backend
        else:
            yield "dense:cpu-sdpa", base.replace(mode="dense"), None
    for mode in _SPARSE_MODES:
        if mode in s["modes"]:
            for indexer in s["indexers"]:
                yield f"{mode}:{indexer}", base.replace(mode=mode, indexer=indexer), None


@torch.inference_mode()
def measure(lm: LoadedModel, cfg: AttentionConfig, tokens: int, chunk: int, decode_tokens: int,
            dense_backend, backend_name: str | None) -> dict:
    """Chunked prefill of `tokens` random ids, then decode_tokens one-token forwards: seconds, memory, shares."""
    device = lm.device
    plan = LayerPlan.build(cfg, lm.n_layers, frozenset())
    attention = TimedAttention(cfg, plan, backend_name=backend_name, device=device)
    cache = appending_cache(lm.config)
    ids = torch.randint(lm.config.vocab_size, (1, tokens), device=device)
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    kernels = sdpa_kernel([dense_backend]) if dense_backend is not None else contextlib.nullcontext()
    with kernels:
        with Meter(device) as prefill:
            for start in range(0, tokens, chunk):
                logits = forward(lm, ids[:, start : start + chunk], cache, attention)
        before = attention.seconds()
        next_ids = logits[:, -1:].argmax(-1)
        with Meter(device) as decode:
            for _ in range(decode_tokens):
                next_ids = forward(lm, next_ids, cache, attention)[:, -1:].argmax(-1)
        after = attention.seconds()
    peak = (torch.cuda.max_memory_allocated(device) if device.type == "cuda"
            else max(prefill.result.peak_memory_bytes, decode.result.peak_memory_bytes))
    decode_parts = {k: after[k] - before[k] for k in after}
    return {
        "prefill_s": prefill.result.seconds,
        "prefill_chunks": -(-tokens // chunk),
        "decode_s_per_token": decode.result.seconds / decode_tokens if decode_tokens else None,
        "decode_tokens": decode_tokens,
        "peak_memory_bytes": peak,
        "memory_kind": "cuda peak allocated (weights and cache included)" if device.type == "cuda"
        else prefill.result.memory_kind,
        "indexer_passes": attention.indexer_passes,
        "prefill_shares": shares(prefill.result.seconds, before),
        "decode_shares": shares(decode.result.seconds, decode_parts),
    }


def shares(total: float, parts: dict[str, float]) -> dict:
    """Seconds and shares of the indexer, the rest of attention, and everything else, summing to total."""
    attention_only = parts["attention"] - parts["indexer"]
    seconds = {"indexer": parts["indexer"], "attention": attention_only, "other": total - parts["attention"]}
    return {"seconds": seconds, "share": {k: v / total if total else None for k, v in seconds.items()}}


def _fastest_dense(measured: dict) -> dict | None:
    dense = {k: v["prefill_s"] for k, v in measured.items() if k.startswith("dense:") and "prefill_s" in v}
    if not dense:
        return None
    name = min(dense, key=dense.get)
    return {"variant": name, "prefill_s": dense[name], "by_prefill_s": dense}


def _settings(args: argparse.Namespace) -> dict:
    lengths = [parse_length(x) for x in (args.lengths or DEFAULT_LENGTHS[args.preset]).split(",")]
    modes = [m.strip() for m in args.modes.split(",")]
    indexers = [i.strip() for i in args.indexers.split(",")]
    bad = [m for m in modes if m not in ("dense", *_SPARSE_MODES)] + [i for i in indexers if i not in INDEXERS]
    if bad:
        raise EngineError(f"unknown mode or indexer: {', '.join(bad)}")
    chunk = args.prefill_chunk or DEFAULT_CHUNK[args.preset]
    if chunk < 1 or args.decode_tokens < 0 or args.answer_tokens < 0:
        raise EngineError("prefill chunk must be 1 or more, decode and answer tokens 0 or more")
    device = torch.device(args.device or ("cuda" if torch.cuda.is_available() else "cpu"))
    if device.type == "cuda" and not torch.cuda.is_available():
        raise EngineError("--device cuda but no CUDA device is available")
    check = args.check_length if args.check_length is not None else 2 * chunk
    out = Path(args.out)
    if not out.parent.is_dir():
        raise EngineError(f"{out.parent} is not a folder")
    return {
        "lengths": lengths, "dense_max": parse_length(args.dense_max), "modes": modes, "indexers": indexers,
        "chunk": chunk, "decode_tokens": args.decode_tokens, "answer_tokens": args.answer_tokens,
        "backend": args.backend, "device": device, "check_length": check, "budget_s": args.budget_s,
        "out": out, "profile_dir": Path(args.profile_dir) if args.profile_dir else None,
        "base": AttentionConfig().replace(**ATTENTION[args.preset]),
    }


def _versions() -> dict:
    from engine.model.provenance import versions

    return versions()


def _release(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.empty_cache()


def _save(report: dict, s: dict) -> None:
    write_json_atomic(s["out"], report)
