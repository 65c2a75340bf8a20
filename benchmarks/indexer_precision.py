"""What TF32 products cost the pooled indexer in accuracy, emulated on the CPU.

Usage: .venv/bin/python benchmarks/indexer_precision.py [--tokens 16384 131072]

The Triton indexer multiplies the fp32 block means of bf16 and fp16 inputs in TF32 on
the tensor cores (engine/attention/kernels/pooled_indexer.py). Triton's interpreter
ignores the precision, so the CPU tests cannot see its effect; this cuts the means to
TF32's 10 mantissa bits, as the tensor cores read them, and compares the
scores and the engine's selection with float64, at Llama 3 8B's head layout with bf16
inputs. For scale, it also measures what rounding fp32 inputs to bf16 changes, which
every bf16 model already lives with. Keys get a per-block offset so that blocks differ,
as real keys do. Writes benchmarks/indexer_precision.json.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

import torch  # noqa: E402

from engine.core.attention_config import AttentionConfig  # noqa: E402
from engine.attention.layout import QueryLayout  # noqa: E402
from engine.attention.selection import block_index  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402

HERE = Path(__file__).resolve().parent
HQ, HKV, D = 32, 8, 128


def tf32(x: torch.Tensor) -> torch.Tensor:
    """fp32 cut to TF32's 10 explicit mantissa bits. Triton hands the fp32 bits to the
    TF32 mma unconverted (no cvt.rna in the PTX), so this takes the worse of what the
    tensor core may do with the low 13 bits: drop them (twice the error of rounding)."""
    return (x.float().contiguous().view(torch.int32) & ~0x1FFF).view(torch.float32)


def block_scores(q_means: torch.Tensor, k_means: torch.Tensor) -> torch.Tensor:
    """[1, HKV, NQB, NKB] float64: max over the group's heads of mean q . mean k, -inf after the diagonal."""
    per_head = q_means.double().unflatten(1, (HKV, HQ // HKV)) @ k_means.double()[:, :, None].transpose(-1, -2)
    scores = per_head.amax(2)
    return scores.masked_fill(~torch.ones(scores.shape[-2:], dtype=torch.bool).tril(), float("-inf"))


def block_means(x: torch.Tensor, block_size: int) -> torch.Tensor:
    return x.double().unflatten(2, (-1, block_size)).mean(3)


def difference(scores: torch.Tensor, index: torch.Tensor, exact: torch.Tensor, exact_index: torch.Tensor) -> dict:
    finite = torch.isfinite(exact)
    # Ids the exact selection holds and this one does not, over all real ids.
    rows = zip(exact_index.flatten(0, 2), index.flatten(0, 2), strict=True)
    changed = sum(len(set(a.tolist()) - set(b.tolist())) for a, b in rows) / int((exact_index >= 0).sum())
    return {
        "score_relative_error": float((scores[finite] - exact[finite]).norm() / exact[finite].norm()),
        "rows_with_the_same_selection": float((index == exact_index).all(-1).float().mean()),
        "selected_ids_changed": changed,
    }


def measure(tokens: int, cfg: AttentionConfig) -> list[dict]:
    """Products in fp32 and in TF32 against float64, both on bf16 inputs; and, for scale,
    what rounding fp32 inputs to bf16 already changes (float64 products throughout)."""
    layout = QueryLayout(q_len=tokens, kv_len=tokens, block_size=cfg.block_size)
    torch.manual_seed(0)
    q32 = torch.randn(1, HQ, tokens, D)
    offsets = torch.randn(1, HKV, layout.n_k_blocks, 1, D).repeat_interleave(cfg.block_size, 2).flatten(2, 3)
    k32 = torch.randn(1, HKV, tokens, D) + offsets
    q_means, k_means = block_means(q32.bfloat16(), cfg.block_size), block_means(k32.bfloat16(), cfg.block_size)
    exact = block_scores(q_means, k_means)
    exact_index, _ = block_index(cfg, layout, 1, HKV, exact.float(), "cpu")
    rows = []
    for name, rounding in (("fp32 products", lambda x: x.float()), ("tf32 products", tf32)):
        scores = block_scores(rounding(q_means), rounding(k_means))
        index, _ = block_index(cfg, layout, 1, HKV, scores.float(), "cpu")
        rows.append({"tokens": tokens, "change": name, **difference(scores, index, exact, exact_index)})
    fp32_inputs = block_scores(block_means(q32, cfg.block_size), block_means(k32, cfg.block_size))
    fp32_index, _ = block_index(cfg, layout, 1, HKV, fp32_inputs.float(), "cpu")
    rows.append({"tokens": tokens, "change": "bf16 inputs, against fp32 inputs",
                 **difference(exact, exact_index, fp32_inputs, fp32_index)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tokens", type=int, nargs="+", default=[16384, 131072])
    cfg = AttentionConfig()
    rows = [row for tokens in parser.parse_args().tokens for row in measure(tokens, cfg)]
    report = {"date": date.today().isoformat(), "device": "cpu, this 2-core machine (TF32 truncation emulated)",
              "heads": [HQ, HKV, D], "inputs": "bfloat16", "attention": cfg.__dict__, "rows": rows}
    write_json_atomic(HERE / "indexer_precision.json", report)
    for r in rows:
        print(f"{r['tokens']} tokens, {r['change']}: score error {r['score_relative_error']:.2e}, rows with the "
              f"same selection {r['rows_with_the_same_selection']:.2%}, selected ids changed "
              f"{r['selected_ids_changed']:.2e}")


if __name__ == "__main__":
    main()
