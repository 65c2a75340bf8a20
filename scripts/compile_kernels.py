"""Compile every Triton kernel for Hopper (sm_90) on a machine without a GPU, as the engine launches it.

Triton's interpreter, which runs the kernel tests on the CPU, accepts code the
compiler rejects and says nothing of registers or pipelining. So this script calls
each kernel module's own launcher on meta tensors at the Llama 3 and Qwen2.5 head
layouts, records the arguments every launch passes, specialises them as Triton's JIT
does (an int equal to 1 becomes a constant; multiples of 16 and aligned pointers get
divisibility hints, which decide whether loads can be vectorised and prefetched), and
compiles each config that the autotuner's own pruning keeps, with the ptxas in
Triton's wheel. Per config it reports registers, spilled bytes, shared memory, the
async copies in the TTGIR (the loads Triton's pipeliner prefetches a stage ahead) and
the tensor-core instructions in the PTX (mma.sync, wgmma).

    .venv/bin/python scripts/compile_kernels.py

Exits 1 when a kernel fails to compile, when some shape has no config left without
spills (the autotuner would then only have slow choices), or when a kernel that
streams K/V or pooled tiles through a loop gets no async copies with 2 or more stages
or runs its products without tensor cores.
"""

from __future__ import annotations

import contextlib
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
from triton._C.libtriton import native_specialize_impl  # noqa: E402
from triton.backends.compiler import BaseBackend, GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

from engine.attention.kernels import (  # noqa: E402
    exact_indexer,
    pooled_indexer,
    pooled_mass_indexer,
    sparse_decode,
    sparse_prefill,
)
from engine.attention.layout import QueryLayout  # noqa: E402

HOPPER = GPUTarget("cuda", 90, 32)
CUOBJDUMP = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
# (name, query heads, KV heads, head dim); block 64, bf16, the engine's default 53-block selection.
SHAPES = (("Llama 3 8B", 32, 8, 128), ("Qwen2.5-7B", 28, 4, 128), ("Llama 3.2 1B", 32, 8, 64))
BLOCK, SLOTS, PREFILL_TOKENS, DECODE_KEYS = 64, 53, 16384, 131072
# Kernels whose main loop streams tiles into dot products: prefetched, on the tensor cores.
STREAMING = {"_sparse_prefill_kernel", "_decode_split_kernel", "_pooled_scores_kernel", "_exact_scores_kernel",
             "_pooled_mass_kernel"}


class _Recorder:
    """Stands in for a kernel: `kernel[grid](*args, **kwargs)` records the call instead of running it."""

    def __init__(self, name: str, kernel, calls: list):
        self.name, self.kernel, self.calls = name, kernel, calls

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.calls.append((self.name, self.kernel, args, kwargs))


@contextlib.contextmanager
def recorded_launches(module):
    """Swap the module's kernels for recorders for the duration; yields the list of calls."""
    kernels = {name: obj for name, obj in vars(module).items()
               if isinstance(obj, (triton.runtime.jit.JITFunction, triton.runtime.autotuner.Autotuner))}
    calls: list = []
    for name, kernel in kernels.items():
        setattr(module, name, _Recorder(name, kernel, calls))
    try:
        yield calls
    finally:
        for name, kernel in kernels.items():
            setattr(module, name, kernel)


def launches(hq: int, hkv: int, d: int):
    """Every kernel call the five launchers make for one head layout."""
    meta = dict(device="meta", dtype=torch.bfloat16)
    t = PREFILL_TOKENS
    q, k = torch.empty(1, hq, t, d, **meta), torch.empty(1, hkv, t, d, **meta)
    layout = QueryLayout(q_len=t, kv_len=t, block_size=BLOCK)
    index = torch.empty(1, hkv, layout.n_q_blocks, SLOTS, device="meta", dtype=torch.int64)
    out = torch.empty(1, t, hq, d, **meta).transpose(1, 2)  # the launcher's default output layout
    with recorded_launches(sparse_prefill) as calls:
        sparse_prefill._launch(q, k, k, index, out, d**-0.5, layout)
    yield from calls
    scores = torch.empty(1, hkv, layout.n_q_blocks, layout.n_k_blocks, device="meta")
    for indexer in (pooled_indexer, exact_indexer, pooled_mass_indexer):
        with recorded_launches(indexer) as calls:
            indexer._launch(q, k, layout, scores)
        yield from calls
    q1, k_long = torch.empty(1, hq, 1, d, **meta), torch.empty(1, hkv, DECODE_KEYS, d, **meta)
    index = torch.empty(1, hkv, 1, SLOTS, device="meta", dtype=torch.int64)
    with recorded_launches(sparse_decode) as calls:
        sparse_decode._launch(q1, k_long, k_long, index, d**-0.5, BLOCK, torch.empty_like(q1))
    yield from calls


def kept_configs(kernel, args: dict, kwargs: dict) -> list[triton.Config | None]:
    """The configs the autotuner would time for these arguments (None: a plain kernel's defaults)."""
    if not isinstance(kernel, triton.runtime.autotuner.Autotuner):
        return [None]
    if kernel.early_config_prune is None:
        return list(kernel.configs)
    return kernel.early_config_prune(kernel.configs, args, **kwargs)


def compile_for_hopper(jit, args: dict, constexprs: dict, config: triton.Config | None) -> dict[str, int]:
    """Compile with the JIT's specialisation of `args`; what the compiler made of it."""
    constexprs = {**constexprs, **(config.kwargs if config else {})}
    signature, attrs = {}, {}
    for i, name in enumerate(jit.arg_names):
        if name in constexprs:
            signature[name] = "constexpr"
            continue
        kind, hint = native_specialize_impl(BaseBackend, args[name], False, True, True)
        signature[name] = kind
        if kind == "constexpr":  # an int equal to 1
            constexprs[name] = hint
        elif hint:
            attrs[(i,)] = BaseBackend.parse_attr(hint)
    options = {"num_warps": config.num_warps, "num_stages": config.num_stages} if config else {}
    compiled = triton.compile(ASTSource(jit, signature, constexprs, attrs), target=HOPPER, options=options)
    with tempfile.NamedTemporaryFile(suffix=".cubin") as cubin:
        cubin.write(compiled.asm["cubin"])
        cubin.flush()
        report = subprocess.run([CUOBJDUMP, "--dump-resource-usage", cubin.name], capture_output=True, text=True)
    found = re.search(r"REG:(\d+).*?STACK:(\d+)", report.stdout)
    return {
        "registers": int(found[1]),
        "spilled_bytes": int(found[2]),
        "shared_bytes": compiled.metadata.shared,
        "async_copies": compiled.asm["ttgir"].count("async_copy_global_to_local"),
        "tensor_core_ops": compiled.asm["ptx"].count("mma.sync") + compiled.asm["ptx"].count("wgmma.mma_async"),
        "num_warps": compiled.metadata.num_warps,
        "num_stages": compiled.metadata.num_stages,
    }


def main() -> int:
    failed = False
    print(f"triton {triton.__version__}, target sm_90, bf16, block {BLOCK}, {SLOTS} blocks selected, "
          f"prefill {PREFILL_TOKENS} tokens, decode {DECODE_KEYS} keys")
    for shape, hq, hkv, d in SHAPES:
        for name, kernel, args, kwargs in launches(hq, hkv, d):
            jit = kernel
            while not isinstance(jit, triton.runtime.jit.JITFunction):  # unwrap the autotuner
                jit = jit.fn
            named = dict(zip(jit.arg_names, args, strict=False))  # the later arguments come as keywords
            results = []
            for config in kept_configs(kernel, named, kwargs):
                tiling = ", ".join(f"{k}={v}" for k, v in config.kwargs.items()) if config and config.kwargs else "-"
                try:
                    usage = compile_for_hopper(jit, named, kwargs, config)
                except Exception as exc:  # report every kernel's failure, not just the first
                    print(f"FAIL {name} {shape} {tiling}: {type(exc).__name__}: {exc}")
                    failed = True
                    continue
                results.append(usage)
                print(f"{name.strip('_'):22} {shape:12} {tiling:12} warps {usage['num_warps']}  "
                      f"stages {usage['num_stages']}  registers {usage['registers']:3}  "
                      f"spilled {usage['spilled_bytes']:4} B  shared {usage['shared_bytes']:6} B  "
                      f"async copies {usage['async_copies']}  tensor-core ops {usage['tensor_core_ops']}")
                if name in STREAMING and usage["num_stages"] >= 2 and not usage["async_copies"]:
                    print(f"FAIL {name} {shape} {tiling}: no load is prefetched")
                    failed = True
                if name in STREAMING and not usage["tensor_core_ops"]:
                    print(f"FAIL {name} {shape} {tiling}: its products run on the CUDA cores")
                    failed = True
            if results and all(u["spilled_bytes"] for u in results):
                print(f"FAIL {name} {shape}: every config spills registers")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
