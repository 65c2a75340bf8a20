"""Every tiling of the query-tile kernels (sparse prefill, exact indexer), one at a time, against float64.

The autotuner times every config its pruning keeps and checks none of them; the kernel
tests check only the one it picks, and the interpreter runs only the first. The first
lent GPU (2026-12-04) found fp32 configs that the tests had never run: wrong results or
an illegal memory access at block 16 with four query heads per KV head on 8 warps, and
tiles past the shared memory at head dim 128. This sweep forces each config in turn and reports, per config,
case and dtype, the relative error, "out of resources", or the CUDA error.

Each config runs in its own process: an illegal memory access ruins the CUDA context of
the process it happens in, and every later call there fails with it.

Usage:  python benchmarks/gpu_config_sweep.py [--kept] [--out sweep.json] [--jobs 12] [--small]
--kept: only what the engine may launch: per case and dtype, the tilings the pruning keeps,
with the launcher's own key tile (21 s on the H200 against 160 s for all; gpu_kernels.sh runs this).
--small: the two small cases and two configs, for a dry run in Triton's interpreter.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.jsonfile import write_json_atomic  # noqa: E402

TOLERANCE = {"float32": 1e-3, "bfloat16": 1e-2}


@dataclass(frozen=True)
class Case:
    name: str
    hq: int
    hkv: int
    d: int
    block: int
    q_len: int
    kv_len: int


SMALL = (Case("group 4, D 32, block 16", 8, 2, 32, 16, 150, 150),
         Case("group 3, D 64, block 16, chunk", 6, 2, 64, 16, 37, 150))
REALISTIC = (Case("Llama 3 8B, 2K", 32, 8, 128, 64, 2048, 2048),
             Case("Qwen2.5-7B, 512 of 4K", 28, 4, 128, 64, 512, 4096),
             Case("Llama 3.2 1B, 1K", 32, 8, 64, 64, 1024, 1024))


@dataclass(frozen=True)
class Tiling:
    kernel: str  # "prefill" or "exact"
    tokens: int
    warps: int
    stages: int
    key_tile: int  # the largest key tile one dot product takes (the kernels' _MAX_KEY_TILE)

    @property
    def label(self) -> str:
        return f"{self.kernel} TOKENS={self.tokens} warps {self.warps} stages {self.stages} key tile {self.key_tile}"


def tilings(small: bool, kept_only: bool) -> list[Tiling]:
    if small:
        return [Tiling("prefill", 16, 4, 2, 64), Tiling("prefill", 16, 8, 3, 64)]
    out = []
    for tokens in (16, 32, 64):
        for warps in (4, 8):
            for stages in (2, 3) if kept_only else (1, 2, 3):  # the kernels' CONFIGS have no single stage
                out += [Tiling("prefill", tokens, warps, stages, tile) for tile in (64, 32)]
                if stages > 1:
                    out.append(Tiling("exact", tokens, warps, stages, 64))
    return out


def run_one(tiling: Tiling, small: bool, kept_only: bool) -> list[dict]:
    """In a child process: force the tiling, run every case it fits, one result per case and dtype."""
    import torch
    import triton

    from engine.attention.kernels import exact_indexer, sparse_prefill
    from engine.attention.layout import QueryLayout

    module = sparse_prefill if tiling.kernel == "prefill" else exact_indexer
    kernel = module._sparse_prefill_kernel if tiling.kernel == "prefill" else module._exact_scores_kernel
    kernel.configs = [triton.Config({"TOKENS": tiling.tokens}, num_warps=tiling.warps, num_stages=tiling.stages)]
    if not kept_only:  # the launchers read these at each launch
        module._MAX_KEY_TILE = tiling.key_tile
        module._MAX_KEY_TILE_FP32 = tiling.key_tile
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    generator = torch.Generator().manual_seed(0)
    results = []
    for case in SMALL if small else SMALL + REALISTIC:
        if tiling.tokens > case.block or (tiling.key_tile < 64 and case.block <= tiling.key_tile):
            continue  # a tile lies inside one block; a smaller key tile changes nothing here
        layout = QueryLayout(q_len=case.q_len, kv_len=case.kv_len, block_size=case.block)
        for dtype in (torch.float32, torch.bfloat16):
            if kept_only and not _launchable(tiling, case, dtype):
                continue
            row = {"tiling": asdict(tiling), "case": case.name, "dtype": str(dtype).removeprefix("torch.")}
            try:
                row["error"] = _error(case, layout, dtype, device, generator, tiling.kernel)
            except triton.runtime.errors.OutOfResources as exc:
                row["failure"] = f"out of resources: {exc}"
            except Exception as exc:  # a CUDA error: the context is gone, so stop here
                row["failure"] = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
                results.append(row)
                return results
            results.append(row)
    return results


def _launchable(tiling: Tiling, case: Case, dtype) -> bool:
    """Whether the engine may launch this tiling for this case: the launcher's key tile, and kept by the pruning."""
    import torch
    import triton

    from engine.attention.kernels import exact_indexer, sparse_prefill
    from engine.attention.kernels.query_tiles import CONFIGS

    prefill = tiling.kernel == "prefill"
    tile = sparse_prefill.key_tile(case.block, dtype) if prefill else min(case.block, exact_indexer._MAX_KEY_TILE)
    if tile != min(case.block, tiling.key_tile):
        return False
    # The constexprs as the launchers pass them.
    kept = (sparse_prefill if prefill else exact_indexer)._FITS(
        CONFIGS, {"Q": torch.empty(1, dtype=dtype)}, BLOCK_SIZE=case.block, KEY_TILE=tile,
        GROUP_PAD=triton.next_power_of_2(case.hq // case.hkv), HEAD_DIM_PAD=max(16, triton.next_power_of_2(case.d)))
    return any((c.kwargs["TOKENS"], c.num_warps, c.num_stages) == (tiling.tokens, tiling.warps, tiling.stages)
               for c in kept)


def _error(case: Case, layout, dtype, device, generator, kernel: str) -> float:
    import torch

    from engine.core.attention_config import AttentionConfig
    from engine.attention.indexers import exact_scores as reference_exact
    from engine.attention.indexers import pooled_scores
    from engine.attention.kernels.exact_indexer import exact_scores
    from engine.attention.kernels.sparse_prefill import block_sparse_attention
    from engine.attention.reference import block_sparse_attention as reference_attention
    from engine.attention.selection import block_index

    def randn(heads: int, tokens: int) -> torch.Tensor:
        return torch.randn(1, heads, tokens, case.d, generator=generator).to(device, dtype)

    q, k, v = randn(case.hq, case.q_len), randn(case.hkv, case.kv_len), randn(case.hkv, case.kv_len)
    q64, k64, v64 = (t.double() for t in (q, k, v))
    if kernel == "exact":
        expected = reference_exact(q64, k64, layout)
        out = torch.full(expected.shape, float("nan"), dtype=torch.float32, device=device)
        scores = exact_scores(q, k, layout, out=out)
        _synchronize(device)
        earlier = torch.arange(layout.n_k_blocks, device=device)[None, :] < layout.q_blocks(device)[:, None]
        return _relative(scores[..., earlier], expected[..., earlier])
    cfg = AttentionConfig(block_size=case.block, window=2 * case.block, topk=4 * case.block, global_blocks=1) \
        if case.block < 64 else AttentionConfig()
    index, _ = block_index(cfg, layout, 1, case.hkv, pooled_scores(q64, k64, layout).float(), device)
    scale = case.d**-0.5
    out = block_sparse_attention(q, k, v, index, scale, case.block,
                                 out=torch.full(q.shape, float("nan"), dtype=dtype, device=device))
    _synchronize(device)
    return _relative(out, reference_attention(q64, k64, v64, index, scale, case.block))


def _synchronize(device) -> None:
    """A kernel's fault surfaces here, inside the case's try, not at some later call."""
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize()


def _relative(out, ref) -> float:
    out, ref = out.double(), ref.double()
    error = float((out - ref).norm() / ref.norm())
    return error if error == error else float("inf")  # NaN: an element never written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--jobs", type=int, default=12)
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--kept", action="store_true")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child: one tiling as JSON
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(Tiling(**json.loads(args.one)), args.small, args.kept)))
        return 0

    def child(tiling: Tiling) -> list[dict]:
        flags = [flag for flag, on in (("--small", args.small), ("--kept", args.kept)) if on]
        command = [sys.executable, __file__, "--one", json.dumps(asdict(tiling)), *flags]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
        lines = done.stdout.strip().splitlines()
        if done.returncode or not lines:
            tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return [{"tiling": asdict(tiling), "case": "-", "dtype": "-", "failure": f"exit {done.returncode}: {tail}"}]
        return json.loads(lines[-1])

    with ThreadPoolExecutor(args.jobs) as pool:
        rows = [row for rows in pool.map(child, tilings(args.small, args.kept)) for row in rows]
    bad = 0
    served = set()  # (kernel, case, dtype) with at least one tiling that ran right
    for row in rows:
        t = Tiling(**row["tiling"])
        if "error" in row:
            ok = row["error"] <= TOLERANCE[row["dtype"]]
            verdict = f"{row['error']:.2e} {'ok' if ok else 'FAIL'}"
        else:
            ok, verdict = "out of resources" in row["failure"], row["failure"][:110]
        bad += not ok
        if "error" in row and ok:
            served.add((t.kernel, row["case"], row["dtype"]))
        print(f"{t.label:60} {row['case']:32} {row['dtype']:9} {verdict}")
    print(f"{len(rows)} results, {bad} wrong or crashed (out of resources is a refusal the autotuner skips)")
    # Where every tiling the engine may launch is out of resources, the autotuner has none to pick: a crash.
    unserved = {(Tiling(**r["tiling"]).kernel, r["case"], r["dtype"]) for r in rows if r["case"] != "-"} - served
    for kernel, case, dtype in sorted(unserved):
        print(f"no tiling ran right: {kernel}, {case}, {dtype}")
    bad += len(unserved) if args.kept else 0
    if args.out:
        write_json_atomic(args.out, rows)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
