"""What both indexers' block scores promise on every backend, checked against a float64 oracle.

Only some entries are meaningful (`meaningful`: the blocks selection may pick from), so
the contract compares those; the Triton kernels also promise -inf everywhere else.
Inputs are random draws from a seed fixed per test (conftest.fixed_seed), named in the failure message. Each
indexer's test module supplies its oracle and its meaningful entries.
"""

import pytest
import torch

from engine.attention.backends import resolve
from engine.attention.layout import QueryLayout
from tests.engine.kernels.conftest import DEVICE, TOLERANCE, changed_inputs, poisoned, relative_error


def fresh_inputs(batch, hq, hkv, tq, tk, d, dtype):
    seed = int(torch.randint(0, 2**31, ()))
    generator = torch.Generator().manual_seed(seed)
    q = torch.randn(batch, hq, tq, d, generator=generator).to(DEVICE, dtype)
    k = torch.randn(batch, hkv, tk, d, generator=generator).to(DEVICE, dtype)
    return q, k, seed


class IndexerContract:
    backend_name: str
    indexer: str  # engine.core.attention_config.INDEXERS

    @staticmethod
    def oracle(q: torch.Tensor, k: torch.Tensor, layout: QueryLayout) -> torch.Tensor:
        """[B, HKV, NQB, NKB] float64 scores from the indexer's definition."""
        raise NotImplementedError

    @staticmethod
    def meaningful(layout: QueryLayout) -> torch.Tensor:
        """[NQB, NKB] bool on the CPU: the entries the contract covers."""
        raise NotImplementedError

    @pytest.fixture
    def scores_fn(self):
        return resolve(self.backend_name, DEVICE).scorer(self.indexer)

    def run_case(self, scores_fn, hq, hkv, tq, tk, d, block_size, dtype, batch=1):
        """(scores, oracle, layout, description) for one fresh draw."""
        layout = QueryLayout(q_len=tq, kv_len=tk, block_size=block_size)
        q, k, seed = fresh_inputs(batch, hq, hkv, tq, tk, d, dtype)
        out = poisoned(batch, hkv, layout.n_q_blocks, layout.n_k_blocks, dtype=torch.float32)
        scores = scores_fn(q, k, layout, out=out)
        case = f"seed {seed}: B={batch} HQ={hq} HKV={hkv} Tq={tq} Tk={tk} D={d} block={block_size} {dtype}"
        assert scores.data_ptr() == out.data_ptr() and scores.dtype == torch.float32, case
        assert not scores.isnan().any(), f"some scores were never written ({case})"
        return scores, self.oracle(q, k, layout), layout, case

    def error(self, scores, oracle, layout) -> float:
        keep = self.meaningful(layout)
        return relative_error(scores.cpu()[..., keep], oracle.cpu()[..., keep])

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("hq, hkv", [(2, 2), (6, 2), (8, 2)])  # groups of 1, 3 (not a power of two) and 4
    @pytest.mark.parametrize("d", [32, 64])
    def test_it_matches_the_oracle_on_a_full_prefill(self, scores_fn, dtype, hq, hkv, d):
        t = int(torch.randint(100, 500, ()))  # rarely a whole number of blocks
        scores, oracle, layout, case = self.run_case(scores_fn, hq, hkv, t, t, d, 16, dtype)
        assert self.error(scores, oracle, layout) <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    def test_it_matches_the_oracle_at_the_default_models_shape(self, scores_fn, dtype):
        # Qwen2.5-Coder-0.5B, the default model: 14 query heads over 2 KV heads (groups of 7) of 64.
        t = int(torch.randint(100, 500, ()))
        scores, oracle, layout, case = self.run_case(scores_fn, 14, 2, t, t, 64, 16, dtype)
        assert self.error(scores, oracle, layout) <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
    @pytest.mark.parametrize("tq, tk", [(37, 150), (64, 640), (200, 611), (1, 77), (1, 64)])
    def test_it_matches_the_oracle_on_a_chunked_prefill(self, scores_fn, dtype, tq, tk):
        # Queries against a longer cache, starting on and off block boundaries; Tq=1 is decode.
        scores, oracle, layout, case = self.run_case(scores_fn, 6, 2, tq, tk, 32, 16, dtype, batch=2)
        assert self.error(scores, oracle, layout) <= TOLERANCE[dtype], case

    @pytest.mark.parametrize("block_size, d", [(32, 40), (64, 64), (128, 32)])
    def test_it_handles_other_block_sizes_and_head_dims(self, scores_fn, block_size, d):
        scores, oracle, layout, case = self.run_case(scores_fn, 8, 2, 300, 900, d, block_size, torch.bfloat16)
        assert self.error(scores, oracle, layout) <= TOLERANCE[torch.bfloat16], case

    @pytest.mark.parametrize("tq, tk", [(37, 150), (1, 77), (90, 90)])
    def test_padding_queries_and_heads_score_nothing(self, scores_fn, tq, tk):
        # Every real product is negative here, so a padding row (q = 0, product 0) that
        # slipped into a max or a mean would show against the oracle.
        layout = QueryLayout(q_len=tq, kv_len=tk, block_size=16)
        q, k, seed = fresh_inputs(1, 6, 2, tq, tk, 32, torch.float32)
        q, k = -q.abs() - 0.1, k.abs() + 0.1
        scores = scores_fn(q, k, layout)
        keep = self.meaningful(layout)
        assert (scores.cpu()[..., keep] < 0).all(), f"seed {seed}"
        assert self.error(scores, self.oracle(q, k, layout), layout) <= 1e-3, f"seed {seed}"

    def test_it_reads_strided_inputs(self, scores_fn):
        # Queries and keys as transformers holds them before the transpose: [B, T, H, D].
        q = torch.randn(1, 90, 6, 64).to(DEVICE).transpose(1, 2)
        k = torch.randn(1, 170, 2, 64).to(DEVICE).transpose(1, 2)
        layout = QueryLayout(q_len=90, kv_len=170, block_size=16)
        scores = scores_fn(q, k, layout)
        assert self.error(scores, self.oracle(q, k, layout), layout) <= 1e-3


class TritonIndexerContract(IndexerContract):
    backend_name = "triton"

    @pytest.mark.parametrize("tq, tk", [(300, 300), (37, 150), (200, 611), (1, 77)])
    def test_it_writes_minus_infinity_outside_the_meaningful_entries(self, scores_fn, tq, tk):
        scores, _, layout, case = self.run_case(scores_fn, 6, 2, tq, tk, 32, 16, torch.float32)
        keep = self.meaningful(layout)
        assert torch.isneginf(scores.cpu()[..., ~keep]).all(), case
        assert torch.isfinite(scores.cpu()[..., keep]).all(), case

    @pytest.mark.parametrize(
        "change, message",
        [
            (dict(q=torch.randn(1, 5, 40, 32)), "share"),
            (dict(k=torch.randn(1, 2, 100, 16)), "disagree"),
            (dict(layout=QueryLayout(q_len=41, kv_len=100, block_size=16)), "layout"),
            (dict(q=torch.randn(1, 4, 40, 32, dtype=torch.float64)), "fp32, fp16, bf16"),
            (dict(out=torch.empty(1, 2, 3, 7)), "out must be"),
        ],
    )
    def test_it_rejects_inputs_it_cannot_score(self, scores_fn, change, message):
        args = dict(
            q=torch.randn(1, 4, 40, 32),
            k=torch.randn(1, 2, 100, 32),
            layout=QueryLayout(q_len=40, kv_len=100, block_size=16),
            out=None,
        )
        args = changed_inputs(args, change)
        with pytest.raises(ValueError, match=message):
            scores_fn(args["q"], args["k"], args["layout"], out=args["out"])
