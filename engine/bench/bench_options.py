"""The benchmark's shapes, lengths, dtypes and repetitions, and its options, checked before anything runs."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

import torch

from engine.core.attention_config import AttentionConfig
from engine.core.errors import EngineError

MARK_START = "<!-- bench:start -->"
MARK_END = "<!-- bench:end -->"


@dataclass(frozen=True)
class Shape:
    name: str
    heads: int
    kv_heads: int
    head_dim: int


SHAPES = {
    s.name: s
    for s in (
        Shape("llama3-8b", 32, 8, 128),
        Shape("qwen2.5-7b", 28, 4, 128),
        Shape("llama3.2-1b", 32, 8, 64),
        Shape("qwen2.5-0.5b", 14, 2, 64),
        Shape("tiny", 4, 2, 32),  # CPU smoke runs
    )
}
K, M = 1 << 10, 1 << 20
ALL_LENGTHS = tuple(8 * K << i for i in range(8))  # 8K .. 1M
# Without --lengths: every length on one shape per head dim, the targets' lengths on the
# others: 70 to 110 s of timed calls on an H200 by estimate (benchmarks/README.md).
DEFAULT_LENGTHS = {
    "llama3-8b": ALL_LENGTHS,
    "llama3.2-1b": ALL_LENGTHS,
    "qwen2.5-7b": (32 * K, 128 * K),
    "qwen2.5-0.5b": (32 * K, 128 * K),
    "tiny": (1 * K, 2 * K),
}
# Shapes with few lengths first: when the time budget runs out it cuts the longest lengths
# of the last shape, not a whole shape.
DEFAULT_SHAPES = "llama3-8b,qwen2.5-7b,qwen2.5-0.5b,llama3.2-1b"
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
MAX_LENGTH = 1 << 24


@dataclass(frozen=True)
class Reps:
    warmup_ms: int  # do_bench's warm-up and repetition times
    rep_ms: int
    min_samples: int  # fewest timed calls for calls timed one by one


FULL_REPS = Reps(warmup_ms=25, rep_ms=100, min_samples=3)
QUICK_REPS = Reps(warmup_ms=5, rep_ms=20, min_samples=1)


@dataclass(frozen=True)
class Settings:
    device: torch.device
    dtype: torch.dtype
    backend_name: str
    shapes: tuple[Shape, ...]
    lengths: dict[str, tuple[int, ...]]
    dense_max: int
    cfg: AttentionConfig
    reps: Reps
    budget_s: float
    out: Path
    readme: Path | None


def parse_length(text: str) -> int:
    """'8K' -> 8192, '1M' -> 1048576, '5000' -> 5000."""
    raw = text.strip()
    scale = {"k": K, "m": M}.get(raw[-1:].lower(), 1)
    digits = raw[:-1] if scale > 1 else raw
    if not digits.isdigit():
        raise EngineError(f"length {text!r} is not a whole number of tokens (K and M suffixes allowed)")
    value = int(digits) * scale
    if not 1 <= value <= MAX_LENGTH:
        raise EngineError(f"length {text!r} must be between 1 and {MAX_LENGTH:,} tokens")
    return value


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Every option checked before anything is allocated or timed."""
    device = _device(args.device)
    names = [n.strip() for n in args.shapes.split(",") if n.strip()]
    unknown = [n for n in names if n not in SHAPES]
    if not names or unknown:
        raise EngineError(f"unknown shape(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(SHAPES)}")
    if args.lengths is not None:
        given = tuple(sorted({parse_length(t) for t in args.lengths.split(",") if t.strip()}))
        if not given:
            raise EngineError("--lengths names no length")
        lengths = dict.fromkeys(names, given)
    else:
        lengths = {n: DEFAULT_LENGTHS[n] for n in names}
    if not args.budget_s > 0:  # NaN too: it would never stop the run
        raise EngineError(f"--budget-s must be positive, got {args.budget_s}")
    cfg = AttentionConfig(mode="index_share", dense_layers=0, group_size=args.group_size,
                          block_size=args.block_size, window=args.window, topk=args.topk, indexer=args.indexer)
    return Settings(
        device=device,
        dtype=DTYPES[args.dtype],
        backend_name=args.backend or ("triton" if device.type == "cuda" else "torch"),
        shapes=tuple(SHAPES[n] for n in names),
        lengths=lengths,
        dense_max=parse_length(args.dense_max),
        cfg=cfg,
        reps=QUICK_REPS if args.quick else FULL_REPS,
        budget_s=args.budget_s,
        out=_writable(Path(args.out)),
        readme=_readme_with_markers(Path(args.readme)) if args.readme else None,
    )


def _device(name: str | None) -> torch.device:
    """cpu, cuda or cuda:N of a visible GPU; None = cuda when available. Checked before anything is allocated."""
    if name is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError:  # a name torch does not know, such as 'tpu' or 'cuda:x'
        device = None
    # The benchmark times real work: meta tensors hold no data, and other device types
    # (mps, xpu, ...) have neither the SDPA flash kernel nor our Triton kernels.
    if device is None or not (device.type == "cuda" or device == torch.device("cpu")):
        raise EngineError(f"--device {name!r} is not a device the benchmark runs on; choose cpu, cuda or cuda:N")
    if device.type == "cuda":
        visible = torch.cuda.device_count()
        if not visible:
            raise EngineError(f"--device {name}: no CUDA device is visible")
        if device.index is not None and device.index >= visible:
            raise EngineError(f"--device {name}: only {visible} CUDA device(s) visible, cuda:0 to cuda:{visible - 1}")
    return device


def _writable(path: Path) -> Path:
    if path.is_dir() or not path.parent.is_dir() or not os.access(path.parent, os.W_OK):
        raise EngineError(f"cannot write {path}: it is a folder, or its folder does not exist or is not writable")
    return path


def _readme_with_markers(path: Path) -> Path:
    if not path.is_file():
        raise EngineError(f"--readme {path} {'is a folder' if path.is_dir() else 'does not exist'}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise EngineError(f"--readme {path} is not UTF-8 text") from exc
    if text.count(MARK_START) != 1 or text.count(MARK_END) != 1 or text.index(MARK_START) > text.index(MARK_END):
        raise EngineError(f"--readme {path} needs one {MARK_START} line followed by one {MARK_END} line")
    return _writable(path)
