"""Analytic cost ledger: FLOPs and bytes per component, from a model's shape.

Counts follow the engine's own algorithms (see engine/attention), one multiply-add
counted as 2 FLOPs. Two views per mode:
  prefill   the whole prompt of N tokens, logits for the last token only;
  marginal  one more token decoded at position L (it attends to L keys, itself included).
  continuation  a prompt's last tokens against a cached prefix's keys (full context with
                a cached document prefix: the prefix's prefill is paid once, apart).

Components: `linear` (Q/K/V/O projections, MLP and the LM head), `attention` (QK^T
and PV over the keys each query sees) and `indexer` (block scores; top-k selection
itself is a sort, counted as no FLOPs). Bytes are what a step must read from memory:
weights once, plus the K/V each query block loads (a block's queries share a load)
and what the indexer scans.

Causal masking: a query at position p counts p keys, never the masked half. Sparse
attention counts min(p, budget) keys, a small overcount for the partly visible
diagonal block.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field

from engine.core.attention_config import ANSWER_TAIL_TOKENS, AttentionConfig
from engine.core.layer_plan import LayerPlan
from engine.core.model_metadata import ModelMetadata

COMPONENTS = ("linear", "attention", "indexer")


@dataclass(frozen=True)
class IndexerShape:
    """A separate learned indexer (DeepSeek's lightning indexer); None = score with the layer's own q/k."""

    heads: int
    head_dim: int
    bytes_per_key: int  # DeepSeek V3.2 keeps indexer keys in FP8: one byte per element


@dataclass(frozen=True)
class ModelShape:
    name: str
    n_layers: int
    d_model: int
    n_heads: int
    n_kv_heads: int  # K/V cache heads (1 for MLA's shared latent)
    qk_dim: int  # per-head dot-product width
    v_dim: int  # per-head value width
    kv_dim: int  # cached elements per token per KV head, K and V together
    linear_flops_per_token: int  # all projections, MLP and LM head of one token, all layers
    weight_bytes: int
    vocab: int
    max_positions: int
    native_window: int = 0  # the model's own local window, for its native layers
    native_layers: frozenset[int] = frozenset()
    learned_indexer: IndexerShape | None = None
    bytes_per_element: int = 2  # bf16
    source: str = "from the model's config"

    def plan(self, cfg: AttentionConfig) -> LayerPlan:
        return LayerPlan.build(cfg, self.n_layers, self.native_layers)


@dataclass
class Costs:
    flops: dict[str, float] = field(default_factory=lambda: dict.fromkeys(COMPONENTS, 0.0))
    bytes: dict[str, float] = field(default_factory=lambda: dict.fromkeys(COMPONENTS, 0.0))

    @property
    def total_flops(self) -> float:
        return sum(self.flops.values())

    @property
    def total_bytes(self) -> float:
        return sum(self.bytes.values())

    def to_json(self) -> dict:
        return {
            "flops": {**self.flops, "total": self.total_flops},
            "bytes": {**self.bytes, "total": self.total_bytes},
        }


def from_metadata(m: ModelMetadata, name: str) -> ModelShape:
    """Shape of a Llama/Qwen2/Mistral/Gemma3-style decoder from its dimensions (engine.core.model_metadata)."""
    d, layers, heads, kv_heads, head_dim = m.hidden_size, m.num_layers, m.num_heads, m.num_kv_heads, m.head_dim
    per_layer = 2 * d * (heads + 2 * kv_heads) * head_dim + 2 * heads * head_dim * d + 3 * 2 * d * m.intermediate_size
    lm_head = 2 * d * m.vocab_size
    native = m.native_window_layers()
    params = layers * per_layer // 2 + m.vocab_size * d
    return ModelShape(
        name=name,
        n_layers=layers,
        d_model=d,
        n_heads=heads,
        n_kv_heads=kv_heads,
        qk_dim=head_dim,
        v_dim=head_dim,
        kv_dim=2 * head_dim,
        linear_flops_per_token=layers * per_layer + lm_head,
        weight_bytes=params * 2,
        vocab=m.vocab_size,
        max_positions=m.max_positions,
        native_window=m.sliding_window if native else 0,
        native_layers=native,
    )


def from_hf_config(config, name: str) -> ModelShape:
    """Shape of a loaded model, from its transformers config."""
    return from_metadata(ModelMetadata.from_transformers(config), name)


# Published figures, not measured here:
# - 78 layers, hidden 6144, 64 heads, indexer 32 heads x 128, top-k 2048, indexer in
#   every 4th layer, ~40B active parameters: GLM-5.2 as described by Zhipu AI and in
#   ../shared/DESIGN.md (GLM-5 model card: 744B total / 40B active, DeepSeek Sparse Attention).
# - MLA dimensions (KV latent 512 + 64 RoPE dims, absorbed attention: QK over 576, PV
#   over 512 per head) and the FP8 lightning indexer: DeepSeek-V3.2-Exp config.json and
#   technical report, whose attention GLM-5 adopts.
# - vocab 151,552: GLM-4.5 tokenizer.
GLM52_LIKE = ModelShape(
    name="glm-5.2-like",
    n_layers=78,
    d_model=6144,
    n_heads=64,
    n_kv_heads=1,
    qk_dim=512 + 64,
    v_dim=512,
    kv_dim=512 + 64,
    linear_flops_per_token=2 * 40_000_000_000,
    weight_bytes=40_000_000_000 * 1,  # active expert weights read per token, FP8
    vocab=151_552,
    max_positions=1 << 20,
    learned_indexer=IndexerShape(heads=32, head_dim=128, bytes_per_key=1),
    source="published figures (see engine/core/ledger.py), not measured",
)

# The smollm2 preset needs no weights: the default model's config, as converted.
SMOLLM2_135M = from_metadata(
    ModelMetadata(model_type="llama", hidden_size=576, intermediate_size=1536, num_layers=30, num_heads=9,
                  num_kv_heads=3, head_dim=64, vocab_size=49152, max_positions=8192),
    name="smollm2-135m",
)

GLM52_ATTENTION = AttentionConfig(
    mode="index_share", block_size=64, window=128, sink_blocks=1, global_blocks=0, topk=2048, group_size=4,
    dense_layers=0, indexer="exact",
)  # DSA: per-token top-2048 from a lightning indexer; window/sinks are ours, kept minimal.


def prefill_costs(shape: ModelShape, cfg: AttentionConfig, n: int, answer_tail: bool = True,
                  last_block_exact: bool = True) -> Costs:
    """Cost of prefilling n tokens (logits for the last one only).

    answer_tail: the last ANSWER_TAIL_TOKENS queries attend once more at the answer's budget
    (AttentionConfig.answer_topk), as a prompt's last forward does; a cached prefix's prefill (and continuation_costs'
    prefix, which it subtracts) leaves them out, as engine.strategies.prefix does.
    last_block_exact: the pooled_mass indexer scores a forward's last block query by query; continuation_costs
    counts the prefix as the first queries of a longer forward, where that block was pooled like the rest."""
    costs = Costs()
    lm_head = 2 * shape.d_model * shape.vocab
    costs.flops["linear"] = (shape.linear_flops_per_token - lm_head) * n + lm_head
    costs.bytes["linear"] = shape.weight_bytes
    kv_token_bytes = shape.n_kv_heads * shape.kv_dim * shape.bytes_per_element
    for role in shape.plan(cfg).roles:
        keys = _keys_seen_sum(shape, cfg, role, n)  # sum over queries of keys attended
        loads = _kv_block_loads(shape, cfg, role, n)
        if answer_tail:
            keys += _answer_tail_keys(shape, cfg, role, n)
            loads += _answer_tail_loads(shape, cfg, role, n) * kv_token_bytes
        costs.flops["attention"] += 2 * shape.n_heads * (shape.qk_dim + shape.v_dim) * keys
        costs.bytes["attention"] += loads
        if role == "index":
            flops, nbytes = _indexer_prefill(shape, cfg, n, last_block_exact)
            costs.flops["indexer"] += flops
            costs.bytes["indexer"] += nbytes
    return costs


def marginal_costs(shape: ModelShape, cfg: AttentionConfig, position: int, reselect: bool = True) -> Costs:
    """Cost of decoding one token at `position` (it attends to `position` keys).

    reselect: whether its indexer layers score the keys (AttentionConfig.decode_reselect), or reuse picks."""
    costs = Costs()
    costs.flops["linear"] = shape.linear_flops_per_token
    costs.bytes["linear"] = shape.weight_bytes
    kv_token_bytes = shape.n_kv_heads * shape.kv_dim * shape.bytes_per_element
    for role, layers in _role_counts(shape, cfg):
        keys = _keys_seen(shape, cfg.for_answer(), role, position)  # a decoded token attends at the answer's budget
        costs.flops["attention"] += layers * 2 * shape.n_heads * (shape.qk_dim + shape.v_dim) * keys
        costs.bytes["attention"] += layers * keys * kv_token_bytes
        if role == "index" and reselect:
            flops, nbytes = _indexer_decode(shape, cfg, position)
            costs.flops["indexer"] += layers * flops
            costs.bytes["indexer"] += layers * nbytes
    return costs


@functools.lru_cache(maxsize=256)
def _role_counts(shape: ModelShape, cfg: AttentionConfig) -> tuple[tuple[str, int], ...]:
    """Each role in shape's layer plan under cfg, and how many layers have it. A decoded token's cost depends on
    nothing else of the plan, and a page's fit check prices thousands of tokens, so it is built once."""
    return tuple(Counter(shape.plan(cfg).roles).items())


def call_costs(shape: ModelShape, cfg: AttentionConfig, prompt_tokens: int, decode_forwards: int) -> Costs:
    """One generation call: the prefill, then each one-token forward at its position."""
    costs = prefill_costs(shape, cfg, prompt_tokens)
    _add_decode(costs, shape, cfg, prompt_tokens, decode_forwards)
    return costs


def continuation_costs(
    shape: ModelShape, cfg: AttentionConfig, prefix_tokens: int, suffix_tokens: int, decode_forwards: int
) -> Costs:
    """One call that continues from a cached prefix: suffix_tokens against the prefix's keys, then decoding.

    The prefix's own prefill is not in it (prefill_costs, once per cache). The suffix's queries are the last
    suffix_tokens queries of a prefill of prefix + suffix, and the attention and indexer counts are sums over
    queries, so their share is the whole prefill's less the prefix's. Exact for the FLOPs of attention and of the
    exact and learned indexers; for the pooled indexer and for bytes it is a close estimate (the engine re-pools
    every cached key and reloads the boundary block). The suffix's linear layers run per token, with the LM head
    for its last one; the weights are read once.
    """
    whole = prefill_costs(shape, cfg, prefix_tokens + suffix_tokens)
    # Inside the whole, the prefix's tail is plain and its last block pooled: subtracting the prefix's own prefill,
    # whose last block pooled_mass scores query by query, made a short question's indexer cost negative.
    prefix = prefill_costs(shape, cfg, prefix_tokens, answer_tail=False, last_block_exact=False)
    costs = Costs()
    lm_head = 2 * shape.d_model * shape.vocab
    costs.flops["linear"] = (shape.linear_flops_per_token - lm_head) * suffix_tokens + lm_head
    costs.bytes["linear"] = shape.weight_bytes
    for component in ("attention", "indexer"):
        costs.flops[component] = whole.flops[component] - prefix.flops[component]
        costs.bytes[component] = whole.bytes[component] - prefix.bytes[component]
    _add_decode(costs, shape, cfg, prefix_tokens + suffix_tokens, decode_forwards)
    return costs


def _add_decode(costs: Costs, shape: ModelShape, cfg: AttentionConfig, prompt_tokens: int, forwards: int) -> None:
    """Add each one-token forward after a prompt of prompt_tokens, at its position."""
    for step in range(1, forwards + 1):
        token = marginal_costs(shape, cfg, prompt_tokens + step, reselect=cfg.reselects_at(step))
        for component in COMPONENTS:
            costs.flops[component] += token.flops[component]
            costs.bytes[component] += token.bytes[component]


def index_share_pays_from(
    shape: ModelShape, cfg: AttentionConfig, saving: float = 0.10, limit: int = 1 << 24
) -> int | None:
    """Shortest prefill (tokens) from which index_share needs `saving` fewer FLOPs than naive_sparse.

    The saving grows with length (the indexer grows faster than the linear layers),
    so doubling then bisecting finds it; None when it never gets there below `limit`.
    """

    def saves(n: int) -> bool:
        naive = prefill_costs(shape, cfg.replace(mode="naive_sparse"), n).total_flops
        return prefill_costs(shape, cfg.replace(mode="index_share"), n).total_flops <= (1 - saving) * naive

    high = cfg.block_size
    while not saves(high):
        if high >= limit:
            return None
        high *= 2
    low = high // 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if saves(mid) else (mid, high)
    return high


def _visible(shape: ModelShape, cfg: AttentionConfig, role: str) -> int | None:
    """Most keys one query attends in a layer of this role; None = all earlier keys."""
    if role == "dense":
        return None
    if role == "native":
        return shape.native_window
    return cfg.budget_tokens


def _keys_seen(shape: ModelShape, cfg: AttentionConfig, role: str, position: int) -> int:
    cap = _visible(shape, cfg, role)
    return position if cap is None else min(position, cap)


def _keys_seen_sum(shape: ModelShape, cfg: AttentionConfig, role: str, n: int) -> int:
    return _capped_sum(_visible(shape, cfg, role), n)


def _capped_sum(cap: int | None, n: int) -> int:
    """sum_{p=1..n} min(p, cap): a triangle up to the cap, then a flat band."""
    if cap is None or cap >= n:
        return n * (n + 1) // 2
    return cap * (cap + 1) // 2 + (n - cap) * cap


def _answer_tail_keys(shape: ModelShape, cfg: AttentionConfig, role: str, n: int) -> int:
    """Keys the last ANSWER_TAIL_TOKENS queries attend beyond the documents' budget, at the answer's."""
    cap, answer_cap = _visible(shape, cfg, role), _visible(shape, cfg.for_answer(), role)
    if cap is None or answer_cap == cap:
        return 0
    first = max(0, n - ANSWER_TAIL_TOKENS)  # positions before the tail
    answer_keys = _capped_sum(answer_cap, n) - _capped_sum(answer_cap, first)
    return answer_keys - (_capped_sum(cap, n) - _capped_sum(cap, first))


def _answer_tail_loads(shape: ModelShape, cfg: AttentionConfig, role: str, n: int) -> int:
    """Key tokens the tail's query blocks load beyond the documents' budget."""
    cap, answer_cap = _visible(shape, cfg, role), _visible(shape, cfg.for_answer(), role)
    if cap is None:
        return 0
    blocks = -(-n // cfg.block_size) - max(0, n - ANSWER_TAIL_TOKENS) // cfg.block_size
    return blocks * (min(n, answer_cap) - min(n, cap))


def _kv_block_loads(shape: ModelShape, cfg: AttentionConfig, role: str, n: int) -> int:
    """Bytes of K/V loaded in a prefill: each query block loads the keys it attends once."""
    b = cfg.block_size
    blocks = -(-n // b)
    cap = _visible(shape, cfg, role)
    kv_token_bytes = shape.n_kv_heads * shape.kv_dim * shape.bytes_per_element
    total = 0
    full = blocks if cap is None else min(blocks, -(-cap // b))
    total += b * full * (full + 1) // 2  # query blocks that still see every earlier block
    if cap is not None and blocks > full:
        total += (blocks - full) * min(cap, n)
    return total * kv_token_bytes


def _earlier_block_pairs(n: int, b: int) -> int:
    """(query, key) pairs of an n-token prompt whose key lies in a block before the query's."""
    blocks = -(-n // b)
    last = n - (blocks - 1) * b  # queries in the last, possibly partial, block
    return b * b * (blocks - 1) * (blocks - 2) // 2 + last * (blocks - 1) * b


def _block_key_pairs(n: int, b: int) -> int:
    """(query block, key) pairs of an n-token prompt with the key at or before the block's last query."""
    blocks = -(-n // b)
    return b * blocks * (blocks - 1) // 2 + n  # full blocks see (i+1)*b keys each; the last sees all n


def _indexer_prefill(shape: ModelShape, cfg: AttentionConfig, n: int,
                     last_block_exact: bool = True) -> tuple[float, float]:
    """One indexer pass over an n-token prompt, in one layer (last_block_exact: prefill_costs)."""
    b, h, d = cfg.block_size, shape.n_heads, shape.qk_dim
    if shape.learned_indexer is not None:
        ix = shape.learned_indexer
        # Lightning indexer: per query, project q (H_I x D_I) and head weights, score
        # every earlier key with H_I dot products of D_I; keys projected once each.
        proj = 2 * shape.d_model * (ix.heads * ix.head_dim + ix.heads + ix.head_dim) * n
        scores = 2 * ix.heads * ix.head_dim * n * (n + 1) // 2
        return proj + scores, n * ix.head_dim * ix.bytes_per_key * -(-n // b)
    kv_h = shape.n_kv_heads
    key_bytes = n * kv_h * d * shape.bytes_per_element
    if cfg.indexer == "exact":
        # 2*H*D per (query, key) pair with the key in an earlier block: the window keeps
        # the diagonal block, so the indexer never scores it.
        return 2 * h * d * _earlier_block_pairs(n, b), key_bytes * -(-n // b) / 2
    if cfg.indexer == "mass":
        # q.k for every causal pair, then scale, exp, normalise and sum into blocks (4 per pair and head).
        pairs = n * (n + 1) // 2
        return 2 * h * d * pairs + 4 * h * pairs, key_bytes * -(-n // b) / 2
    blocks = -(-n // b)
    if cfg.indexer == "pooled_mass":
        # Mean queries (one add per element), then one pooled query per block against every causal key; the last
        # block's queries are then scored one by one, as mass does (its pooled row is computed and replaced).
        # This counts the torch reference's work. The Triton kernel (kernels/pooled_mass_indexer.py) skips the
        # last pooled row but takes every other row's q.k products and exps twice, once for the log-sum-exp and
        # again for the masses: on a GPU the pooled rows cost about 4*H*D + 6*H per pair, not 2*H*D + 4*H, and
        # each tile of 16 to 64 query blocks reads its causal keys twice. The ledger has no notion of backend,
        # so its figures stay the algorithm's.
        last = n - (blocks - 1) * b if last_block_exact else 0
        pairs = _block_key_pairs(n, b) + last * (2 * n - last + 1) // 2
        return h * d * n + 2 * h * d * pairs + 4 * h * pairs, key_bytes
    # pooled: mean queries and keys (one add per element), then 2*H*D per causal
    # (query block, key block) pair.
    pooling = (h + kv_h) * d * n
    return pooling + 2 * h * d * blocks * (blocks + 1) // 2, key_bytes


def _indexer_decode(shape: ModelShape, cfg: AttentionConfig, position: int) -> tuple[float, float]:
    """One indexer pass for a single new token at `position`, in one layer."""
    h, d = shape.n_heads, shape.qk_dim
    if shape.learned_indexer is not None:
        ix = shape.learned_indexer
        proj = 2 * shape.d_model * (ix.heads * ix.head_dim + ix.heads + ix.head_dim)
        return proj + 2 * ix.heads * ix.head_dim * position, position * ix.head_dim * ix.bytes_per_key
    key_bytes = position * shape.n_kv_heads * d * shape.bytes_per_element
    if cfg.indexer == "exact":
        # The new token's own block is the window's: only the keys before it are scored.
        return 2 * h * d * ((position - 1) // cfg.block_size * cfg.block_size), key_bytes
    if cfg.indexer in ("mass", "pooled_mass"):
        # One query against every key, normalised per head (the pooled query of one token is itself).
        return 2 * h * d * position + 4 * h * position, key_bytes
    # pooled: the engine re-pools the keys on every pass (a cache of block means would
    # remove this term), then one pooled query against every key block.
    return shape.n_kv_heads * d * position + h * d + 2 * h * d * -(-position // cfg.block_size), key_bytes


PRESETS = {"smollm2-135m": SMOLLM2_135M, "glm-5.2-like": GLM52_LIKE}
PRESET_ATTENTION = {"glm-5.2-like": GLM52_ATTENTION}
