"""Compile every Triton kernel for Hopper (sm_90) on a machine without a GPU, and report its resources.

Triton's interpreter, which runs the kernels in the CPU tests, accepts code the
compiler rejects; this catches that before a GPU is lent, and shows what ptxas makes
of each tiling the autotuner may try: registers, spilled bytes (stack) and shared
memory, at the head layouts of Llama 3 and Qwen2.5 in bf16.

    TRITON_INTERPRET=0 .venv/bin/python scripts/compile_kernels.py

Exits 1 when a kernel fails to compile, or when some shape has no tiling left without
spills (the autotuner would then only have slow choices).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "0"  # before Triton loads: compile, do not interpret
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from engine.attention.kernels import pooled_indexer, sparse_decode, sparse_prefill  # noqa: E402

HOPPER = GPUTarget("cuda", 90, 32)
CUOBJDUMP = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
# (query heads per KV head, head dim): Llama 3 8B, Qwen2.5-7B, Llama 3.2 1B; block 64.
SHAPES = ((4, 128), (7, 128), (4, 64))
BLOCK = 64


def compile_for_hopper(kernel, types: dict[str, str], constexprs: dict, config: triton.Config) -> dict[str, int]:
    jit = kernel
    while not isinstance(jit, triton.runtime.jit.JITFunction):  # unwrap the autotuner
        jit = jit.fn
    constexprs = {**constexprs, **config.kwargs}
    signature = {name: "constexpr" if name in constexprs else types.get(name, "i32") for name in jit.arg_names}
    compiled = triton.compile(
        ASTSource(jit, signature, constexprs),
        target=HOPPER,
        options={"num_warps": config.num_warps, "num_stages": config.num_stages},
    )
    with tempfile.NamedTemporaryFile(suffix=".cubin") as cubin:
        cubin.write(compiled.asm["cubin"])
        cubin.flush()
        report = subprocess.run([CUOBJDUMP, "--dump-resource-usage", cubin.name], capture_output=True, text=True)
    found = re.search(r"REG:(\d+).*?STACK:(\d+)", report.stdout)
    return {"registers": int(found[1]), "spilled_bytes": int(found[2]), "shared_bytes": compiled.metadata.shared}


def distinct(configs: list[triton.Config]) -> list[triton.Config]:
    """One config per tiling and warp count: pipeline stages hardly move registers."""
    seen = {}
    for c in configs:
        seen.setdefault((tuple(sorted(c.kwargs.items())), c.num_warps), c)
    return list(seen.values())


def cases():
    bf16 = {name: "*bf16" for name in ("Q", "K", "V", "Out")}
    for group, d in SHAPES:
        d_pad = max(16, triton.next_power_of_2(d))
        g_pad = triton.next_power_of_2(group)
        consts = dict(BLOCK_SIZE=BLOCK, KEY_TILE=min(BLOCK, sparse_prefill._MAX_KEY_TILE), GROUP_PAD=g_pad,
                      HEAD_DIM=d, HEAD_DIM_PAD=d_pad)
        kept = sparse_prefill.keep(sparse_prefill._CONFIGS, {"Q": torch.empty(0, dtype=torch.bfloat16)}, **consts)
        yield "sparse_prefill", (group, d), sparse_prefill._sparse_prefill_kernel, {**bf16, "Idx": "*i64",
                                                                                   "qk_scale": "fp32"}, consts, kept
        key_tile = min(BLOCK, sparse_decode._KEY_TILE_VALUES // d_pad)
        consts = dict(GROUP=group, G_PAD=max(16, g_pad), HEAD_DIM=d, D_PAD=d_pad, BLOCK=BLOCK, KEY_TILE=key_tile)
        kept = sparse_decode._keep(sparse_decode._CONFIGS, {"K": torch.empty(0, dtype=torch.bfloat16)}, **consts)
        yield "sparse_decode", (group, d), sparse_decode._decode_split_kernel, {**bf16, "IDX": "*i64",
                                                                                "O_PART": "*fp32", "LSE": "*fp32",
                                                                                "qk_scale": "fp32"}, consts, kept
        consts = dict(GROUP=group, HEAD_DIM=d, D_PAD=d_pad)
        kept = pooled_indexer._keep(pooled_indexer._CONFIGS, {}, **consts)
        yield "pooled_indexer", (group, d), pooled_indexer._pooled_scores_kernel, {"QM": "*fp32", "KM": "*fp32",
                                                                                  "OUT": "*fp32"}, consts, kept


def main() -> int:
    failed = False
    print(f"triton {triton.__version__}, target sm_90, bf16, block {BLOCK}")
    for name, (group, d), kernel, types, consts, kept in cases():
        results = []
        for config in distinct(kept):
            try:
                usage = compile_for_hopper(kernel, types, consts, config)
            except Exception as exc:  # report every kernel's failure, not just the first
                print(f"FAIL {name} group {group} D {d} {config}: {type(exc).__name__}: {exc}")
                failed = True
                continue
            results.append(usage)
            tiling = ", ".join(f"{k}={v}" for k, v in config.kwargs.items()) or "-"
            print(f"{name:15} group {group} D {d:3}  {tiling:12} warps {config.num_warps}  "
                  f"registers {usage['registers']:3}  spilled {usage['spilled_bytes']:5} B  "
                  f"shared {usage['shared_bytes']:6} B")
        if results and all(u["spilled_bytes"] for u in results):
            print(f"FAIL {name} group {group} D {d}: every tiling spills registers")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
