"""Kernel tests: every backend against a float64 oracle, on the CPU through Triton's interpreter
(tests/conftest.py switches it on without CUDA)."""

import zlib

import pytest
import torch

ON_GPU = torch.cuda.is_available()
DEVICE = torch.device("cuda" if ON_GPU else "cpu")


@pytest.fixture(autouse=True)
def fixed_seed(request):
    """Each test draws the same inputs on every run, seeded from its id (parameters included): a failure replays
    exactly, and the suite cannot pass on one run and fail on the next."""
    torch.manual_seed(zlib.crc32(request.node.nodeid.encode()))


# Realistic shapes take minutes in the interpreter: they run on a GPU only.
needs_gpu = pytest.mark.skipif(not ON_GPU, reason="realistic shapes run on a CUDA GPU only")

# Worst relative error ||out - ref|| / ||ref|| against a float64 oracle (the bounds).
TOLERANCE = {torch.float32: 1e-3, torch.bfloat16: 1e-2, torch.float16: 1e-2}


def poisoned(*shape, dtype, device=DEVICE) -> torch.Tensor:
    """An output buffer full of NaN: any element a kernel fails to write shows up."""
    return torch.full(shape, float("nan"), dtype=dtype, device=device)


def changed_inputs(defaults: dict, change: dict) -> dict:
    """Valid keyword inputs with some replaced (to break one thing at a time), tensors on DEVICE."""
    merged = {**defaults, **change}
    return {name: value.to(DEVICE) if torch.is_tensor(value) else value for name, value in merged.items()}


def assert_sparse_attention_rejects(attend, inputs: dict, change: dict, message: str) -> None:
    """`attend` (sparse prefill or decode) raises a ValueError matching `message` on valid inputs with `change` made.

    inputs: the valid q and index for 4 query heads; k and v are 2 KV heads of 64 keys, D 32, in blocks of 16.
    """
    valid = dict(k=torch.randn(1, 2, 64, 32), v=torch.randn(1, 2, 64, 32), block_size=16, out=None, **inputs)
    args = changed_inputs(valid, change)
    with pytest.raises(ValueError, match=message):
        attend(args["q"], args["k"], args["v"], args["index"], 0.2, args["block_size"], out=args["out"])


def rejected_by_both_sparse_attentions(q_len: int) -> list[tuple[dict, str]]:
    """Changes to assert_sparse_attention_rejects' valid inputs (q of q_len queries) that sparse prefill and decode
    refuse alike: blocks too small for a dot product, a dtype no kernel takes, an out buffer of the wrong shape."""
    return [
        (dict(block_size=8), "block size"),
        (dict(q=torch.randn(1, 4, q_len, 32, dtype=torch.float64)), "fp32, fp16, bf16"),
        (dict(out=torch.empty(1, 4, q_len, 16)), "out must be"),
    ]


def random_block_index(batch: int, kv_heads: int, q_blocks: torch.Tensor, slots: int, generator) -> torch.Tensor:
    """A valid random selection: [B, HKV, NQB, slots] ascending causal block ids, -1 padding last.

    q_blocks: [NQB] absolute block id of each query block. Every row keeps its own
    (diagonal) block, as the window always does; the rest are drawn at random among
    earlier blocks, so rows differ in how many real entries they hold.
    """
    rows = []
    for qb in q_blocks.tolist():
        per_head = []
        for _ in range(batch * kv_heads):
            earlier = torch.randperm(qb, generator=generator)[: int(torch.randint(0, slots, (1,), generator=generator))]
            ids = torch.cat([earlier, torch.tensor([qb])]).sort().values
            per_head.append(torch.cat([ids, torch.full((slots - len(ids),), -1)]))
        rows.append(torch.stack(per_head))
    return torch.stack(rows, dim=1).view(batch, kv_heads, len(rows), slots).to(DEVICE)


def oracle_attention(q, k, v, block_idx, scale: float, block_size: int) -> torch.Tensor:
    """Attention over exactly the selected blocks, causal, in float64 on the CPU: [B, HQ, Tq, D].

    Written from the definition (a dense mask built from the index), independent of
    both the reference's gather and the kernels' online softmax.
    """
    q, k, v, block_idx = (t.detach().cpu() for t in (q, k, v, block_idx))
    b, hq, tq, _ = q.shape
    hkv, tk = k.shape[1], k.shape[2]
    n_kb = -(-tk // block_size)
    q_pos = torch.arange(tk - tq, tk)
    k_pos = torch.arange(tk)
    selected = torch.zeros(b, hkv, block_idx.shape[2], n_kb + 1, dtype=torch.bool)
    selected.scatter_(-1, torch.where(block_idx < 0, n_kb, block_idx), True)  # -1 lands in a spare column
    q_block = q_pos // block_size - (tk - tq) // block_size  # row of the index each query reads
    allowed = selected[:, :, q_block][..., k_pos // block_size] & (k_pos[None, :] <= q_pos[:, None])
    allowed = allowed.repeat_interleave(hq // hkv, dim=1)  # [B, HQ, Tq, Tk]
    k64 = k.double().repeat_interleave(hq // hkv, dim=1)
    v64 = v.double().repeat_interleave(hq // hkv, dim=1)
    scores = (q.double() @ k64.transpose(-1, -2) * scale).masked_fill(~allowed, float("-inf"))
    return scores.softmax(-1) @ v64


def relative_error(out: torch.Tensor, ref: torch.Tensor) -> float:
    """||out - ref|| / ||ref|| in float64; NaN anywhere in out gives NaN, which fails any bound."""
    out, ref = out.detach().cpu().double(), ref.detach().cpu().double()
    return float((out - ref).norm() / ref.norm())
