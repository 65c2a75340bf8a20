"""The query tiles of the prefill and exact-indexer kernels, and which of them fit.

A tile is TOKENS consecutive queries of one query block for every query head of a KV
group, so its rows are (heads padded to a power of two) x TOKENS, and the group's
shared K/V (or key) tiles are read once for all of them.
"""

from __future__ import annotations

import triton
import triton.language as tl

# Query tokens per tile, warps and pipeline stages; the interpreter takes the first.
CONFIGS = [
    triton.Config({"TOKENS": tokens}, num_warps=warps, num_stages=stages)
    for tokens in (16, 32, 64, 128)
    for warps in (4, 8)
    for stages in (2, 3)
]


def fitting(values_per_warp: int, max_rows: int):
    """An autotuner `early_config_prune` keeping the tilings that fit the shape and the registers.

    A tile lies inside one query block and holds 16 to max_rows rows (tl.dot needs 16).
    Its query and score tiles, and any accumulator, take about rows x (D + key tile)
    values; counted in bf16-sized values, at most `values_per_warp` per warp, the bound
    each kernel found from ptxas's register counts (scripts/compile_kernels.py).
    """

    def keep(configs, named_args, **kwargs):
        block, group_pad = kwargs["BLOCK_SIZE"], kwargs["GROUP_PAD"]  # constexprs arrive as keywords
        width = (kwargs["HEAD_DIM_PAD"] + kwargs["KEY_TILE"]) * named_args["Q"].element_size() // 2

        fp32 = named_args["Q"].element_size() == 4

        def fits(c: triton.Config) -> bool:
            rows = group_pad * c.kwargs["TOKENS"]
            fits_registers = rows * width <= values_per_warp * c.num_warps
            # fp32 tiles of 64 rows over 8 warps with 16-key tiles (block 16) computed wrong results, or
            # faulted, on sm_90 with Triton 3.6 (benchmarks/gpu_config_sweep.py, 2026-12-04); with 32
            # keys, and in bf16, they were right. fp32 is the checks' dtype, not the one served, so
            # the rule leaves out every such fp32 tile rather than the one shape seen failing.
            known_bad = fp32 and c.num_warps == 8 and rows < 128
            return c.kwargs["TOKENS"] <= block and 16 <= rows <= max_rows and fits_registers and not known_bad

        return [c for c in configs if fits(c)] or configs[:1]

    return keep


@triton.jit
def tile_rows(tile, q_len, kv_len, group, BLOCK_SIZE: tl.constexpr, GROUP_PAD: tl.constexpr, TOKENS: tl.constexpr):
    """Where query tile `tile` lies: (q_block, first, head, token, q_pos, row_ok).

    q_block: its query block, relative to the first (the row of a block index); first:
    the query index of its first token, int64 (below 0 where the first block starts
    before the queries); per row, head within the group, token within the tile, absolute
    position, and whether it is a real query (padding heads and positions are not).
    """
    q_block = tile // (BLOCK_SIZE // TOKENS)
    q_offset = kv_len - q_len
    tile_start = ((q_offset // BLOCK_SIZE) + q_block) * BLOCK_SIZE + (tile % (BLOCK_SIZE // TOKENS)) * TOKENS
    rows = tl.arange(0, GROUP_PAD * TOKENS)
    head = rows // TOKENS
    token = rows % TOKENS
    q_pos = tile_start + token
    row_ok = (head < group) & (q_pos >= q_offset) & (q_pos < kv_len)
    return q_block, (tile_start - q_offset).to(tl.int64), head, token, q_pos, row_ok
