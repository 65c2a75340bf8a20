"""The exact indexer's block scores on every backend against a float64 oracle.

Only entries before each query block's own are meaningful (the window keeps the
diagonal block and selection masks later ones), so the contract compares those; the
Triton kernel also promises -inf from the diagonal on. Inputs are fresh random draws
in every test; the seed is in the failure message.
"""

import pytest
import torch

from engine.attention.backends import resolve
from engine.attention.layout import QueryLayout
from tests.engine.kernels.conftest import DEVICE, TOLERANCE, changed_inputs, needs_gpu, poisoned, relative_error
from tests.engine.kernels.test_pooled_indexer_matches_reference import fresh_inputs


def oracle_exact_scores(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
    """From the definition, in float64 on the CPU: [B, HKV, NQB, NKB].

    score(qb, kb) = max over the query heads sharing a KV head, the real queries of qb
    and the keys of kb of q . k: every token pair scored, then reduced block by block.
    """
    q, k = q.detach().cpu().double(), k.detach().cpu().double()
    b, hq, tq, d = q.shape
    hkv, tk = k.shape[1], k.shape[2]
    bs, n_qb, n_kb = layout.block_size, layout.n_q_blocks, layout.n_k_blocks
    tokens = torch.einsum("bhgtd,bhjd->bhgtj", q.view(b, hkv, hq // hkv, tq, d), k).amax(2)  # [B, HKV, Tq, Tk]
    # Onto the block grid: -inf where the first query block starts before the queries and
    # where the last blocks run past them and past the keys.
    lead = layout.q_offset - layout.first_block * bs
    grid = torch.nn.functional.pad(tokens, (0, n_kb * bs - tk, lead, n_qb * bs - lead - tq), value=float("-inf"))
    return grid.view(b, hkv, n_qb, bs, n_kb, bs).amax(dim=(3, 5))


def earlier(layout: QueryLayout) -> torch.Tensor:
    """[NQB, NKB] bool: key blocks before each query block's own."""
    return torch.arange(layout.n_k_blocks)[None, :] < layout.q_blocks("cpu")[:, None]


class ExactIndexerContract:
    backend_name: str

    @pytest.fixture
    def exact_scores(self):
        return resolve(self.backend_name, DEVICE).exact_scores

    def run_case(self, exact_scores, hq, hkv, tq, tk, d, block_size, dtype, batch=1):
        """(scores, oracle, layout, description) for one fresh draw."""
        layout = QueryLayout(q_len=tq, kv_len=tk, block_size=block_size)
        q, k, seed = fresh_inputs(batch, hq, hkv, tq, tk, d, dtype)
        out = poisoned(batch, hkv, layout.n_q_blocks, layout.n_k_blocks, dtype=torch.float32)
        scores = exact_scores(q, k, layout, out=out)
        case = f"seed {seed}: B={batch} HQ={hq} HKV={hkv} Tq={tq} Tk={tk} D={d} block={block_size} {dtype}"
        assert scores.data_ptr() == out.data_ptr() and scores.dtype == torch.float32, case
        assert not scores.isnan().any(), f"some scores were never written ({case})"
        return scores, oracle_exact_scores(q, k, layout), layout, case

    def error(self, scores, oracle, layout) -> float:
        keep = earlier(layout)
        return relative_error(scores.cpu()[..., keep], oracle[..., keep])

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("hq, hkv", [(2, 2), (6, 2), (8, 2)])  # groups of 1, 3 (not a power of two) and 4
    @pytest.mark.parametrize("d", [32, 64])
    def test_it_matches_the_oracle_on_a_full_prefill(self, exact_scores, dtype, hq, hkv, d):
        t = int(torch.randint(100, 500, ()))  # rarely a whole number of blocks
        scores, oracle, layout, case = self.run_case(exact_scores, hq, hkv, t, t, d, 16, dtype)
        assert self.error(scores, oracle, layout) <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("tq, tk", [(37, 150), (64, 640), (200, 611), (1, 77), (1, 64)])
    def test_it_matches_the_oracle_on_a_chunked_prefill(self, exact_scores, dtype, tq, tk):
        # Queries against a longer cache, starting on and off block boundaries; Tq=1 is decode.
        scores, oracle, layout, case = self.run_case(exact_scores, 6, 2, tq, tk, 32, 16, dtype, batch=2)
        assert self.error(scores, oracle, layout) <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("block_size, d", [(32, 40), (64, 64), (128, 32)])
    def test_it_handles_other_block_sizes_and_head_dims(self, exact_scores, block_size, d):
        scores, oracle, layout, case = self.run_case(exact_scores, 8, 2, 300, 900, d, block_size, torch.bfloat16)
        assert self.error(scores, oracle, layout) <= TOLERANCE[torch.bfloat16], case

    @pytest.mark.parametrize("tq, tk", [(37, 150), (1, 77), (90, 90)])
    def test_padding_queries_and_heads_score_nothing(self, exact_scores, tq, tk):
        # Every real product is negative here, so a padding row (q = 0, product 0) that
        # slipped into the max would show as a 0 where the oracle has a negative score.
        layout = QueryLayout(q_len=tq, kv_len=tk, block_size=16)
        q, k, seed = fresh_inputs(1, 6, 2, tq, tk, 32, torch.float32)
        q, k = -q.abs() - 0.1, k.abs() + 0.1
        scores = exact_scores(q, k, layout)
        keep = earlier(layout)
        assert (scores.cpu()[..., keep] < 0).all(), f"seed {seed}"
        assert self.error(scores, oracle_exact_scores(q, k, layout), layout) <= 1e-3, f"seed {seed}"

    def test_it_reads_strided_inputs(self, exact_scores):
        # Queries and keys as transformers holds them before the transpose: [B, T, H, D].
        q = torch.randn(1, 90, 6, 64).to(DEVICE).transpose(1, 2)
        k = torch.randn(1, 170, 2, 64).to(DEVICE).transpose(1, 2)
        layout = QueryLayout(q_len=90, kv_len=170, block_size=16)
        scores = exact_scores(q, k, layout)
        assert self.error(scores, oracle_exact_scores(q, k, layout), layout) <= 1e-3


class TestTorchBackend(ExactIndexerContract):
    backend_name = "torch"


class TestTritonBackend(ExactIndexerContract):
    backend_name = "triton"

    @pytest.mark.parametrize("tq, tk", [(300, 300), (37, 150), (200, 611), (1, 77)])
    def test_it_writes_minus_infinity_from_the_diagonal_on(self, exact_scores, tq, tk):
        scores, _, layout, case = self.run_case(exact_scores, 6, 2, tq, tk, 32, 16, torch.float32)
        keep = earlier(layout)
        assert torch.isneginf(scores.cpu()[..., ~keep]).all(), case
        assert torch.isfinite(scores.cpu()[..., keep]).all(), case

    @pytest.mark.parametrize(
        "change, message",
        [
            (dict(q=torch.randn(1, 5, 40, 32)), "share"),
            (dict(k=torch.randn(1, 2, 100, 16)), "disagree"),
            (dict(layout=QueryLayout(q_len=41, kv_len=100, block_size=16)), "layout"),
            (dict(layout=QueryLayout(q_len=40, kv_len=100, block_size=8)), "block size"),
            (dict(q=torch.randn(1, 4, 40, 32, dtype=torch.float64)), "fp32, fp16, bf16"),
            (dict(out=torch.empty(1, 2, 3, 7)), "out must be"),
        ],
    )
    def test_it_rejects_inputs_it_cannot_score(self, exact_scores, change, message):
        args = dict(
            q=torch.randn(1, 4, 40, 32),
            k=torch.randn(1, 2, 100, 32),
            layout=QueryLayout(q_len=40, kv_len=100, block_size=16),
            out=None,
        )
        args = changed_inputs(args, change)
        with pytest.raises(ValueError, match=message):
            exact_scores(args["q"], args["k"], args["layout"], out=args["out"])

    @needs_gpu
    @pytest.mark.parametrize("hq, hkv", [(28, 4), (32, 8)])
    def test_it_matches_the_reference_at_realistic_shapes(self, exact_scores, hq, hkv):
        # Qwen2.5-7B and Llama 3 head layouts, an 8K prefill and a 1K chunk at its end. The
        # float64 oracle would hold every token pair; the torch reference, in fp32, does not.
        reference = resolve("torch", DEVICE).exact_scores
        for tq in (8192, 1024):
            layout = QueryLayout(q_len=tq, kv_len=8192, block_size=64)
            q, k, seed = fresh_inputs(1, hq, hkv, tq, 8192, 128, torch.bfloat16)
            out = poisoned(1, hkv, layout.n_q_blocks, layout.n_k_blocks, dtype=torch.float32)
            scores = exact_scores(q, k, layout, out=out)
            keep = earlier(layout).to(DEVICE)
            expected = reference(q.float(), k.float(), layout)
            assert relative_error(scores[..., keep], expected[..., keep]) <= TOLERANCE[torch.bfloat16], f"seed {seed}"
            assert torch.isneginf(scores[..., ~keep]).all(), f"seed {seed}"
