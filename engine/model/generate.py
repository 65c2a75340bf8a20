"""Greedy generation and next-token scoring with the engine's attention, measured.

The loop is ours rather than `model.generate` so that prefill and decode are timed
apart, the prompt can be prefilled in chunks against the KV cache, and the
attention state travels with every forward call.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import torch
from transformers import DynamicCache

from engine.attention import AttentionConfig, LayerPlan, SparseAttention
from engine.core.errors import EngineError
from engine.model.measure import Measurement, Meter
from engine.model.kv_cache import appending_cache
from engine.model.loader import LoadedModel

# lm_head over a whole 8K prompt would be [8K, 49K] logits; score in slices.
_LOGIT_ROWS = 512


def encode_prompt(lm: LoadedModel, text: str, chat: bool = True, system: str | None = None) -> list[int]:
    """Token ids for a prompt, wrapped in the model's chat template when it has one."""
    if not text.strip():
        raise EngineError("the prompt is empty")
    tok = lm.tokenizer
    if chat and getattr(tok, "chat_template", None):
        messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": text}]
        ids = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        return list(ids if isinstance(ids, list) else ids["input_ids"])
    return tok(text, add_special_tokens=True)["input_ids"]


def attention_for(
    lm: LoadedModel, cfg: AttentionConfig, measure_overlap: bool = False, measure_recall: bool = False
) -> SparseAttention:
    plan = LayerPlan.build(cfg, lm.n_layers, lm.native_window_layers())
    return SparseAttention(cfg, plan, measure_overlap=measure_overlap, measure_recall=measure_recall)


def check_length(lm: LoadedModel, n_tokens: int, what: str = "the prompt") -> None:
    if n_tokens > lm.max_positions:
        raise EngineError(
            f"{what} needs {n_tokens} positions but {lm.name} has {lm.max_positions} positions; "
            "shorten it (the engine never truncates silently)"
        )


def check_new_tokens(max_new_tokens: int) -> None:
    if max_new_tokens < 0:
        raise EngineError(f"max new tokens must be 0 or more, got {max_new_tokens}")


@dataclass
class GenerationResult:
    mode: str
    text: str
    prompt_tokens: int
    new_tokens: int
    decode_forwards: int  # one-token forward passes after the prefill
    prefill: Measurement
    decode: Measurement
    indexer_passes: int
    indexer_passes_by_layer: dict[int, int]
    index_overlap: float | None
    index_overlap_by_layer: dict[int, float]
    attention: dict = field(default_factory=dict)
    index_recall: float | None = None  # share of dense attention's top blocks picked (measure_recall)
    index_recall_by_layer: dict[int, float] = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


@torch.inference_mode()
def generate(
    lm: LoadedModel,
    prompt_ids: list[int],
    cfg: AttentionConfig,
    max_new_tokens: int = 64,
    prefill_chunk: int | None = None,
    measure_overlap: bool = False,
    measure_recall: bool = False,
) -> GenerationResult:
    """Greedy continuation of prompt_ids. prefill_chunk: feed the prompt this many tokens at a time.

    measure_recall: also measure, in the prefill, how many of dense attention's top blocks each sparse
    layer picks (a diagnostic that adds to the measured times)."""
    check_new_tokens(max_new_tokens)
    if prefill_chunk is not None and prefill_chunk < 1:
        raise EngineError(f"prefill chunk must be 1 token or more, got {prefill_chunk}")
    check_length(lm, len(prompt_ids) + max_new_tokens, "the prompt plus the new tokens")
    attention = attention_for(lm, cfg, measure_overlap, measure_recall)
    cache = appending_cache(lm.config)
    ids = torch.tensor([prompt_ids], device=lm.device)
    step = prefill_chunk or len(prompt_ids)
    with Meter(lm.device) as prefill:
        for start in range(0, len(prompt_ids), step):
            attention.answer_tail = start + step >= len(prompt_ids)  # only the last chunk ends in the question
            logits = forward(lm, ids[:, start : start + step], cache, attention)
    return decode(lm, cfg, attention, cache, logits, len(prompt_ids), prefill.result, max_new_tokens)


def decode(
    lm: LoadedModel,
    cfg: AttentionConfig,
    attention: SparseAttention,
    cache: DynamicCache,
    logits: torch.Tensor,
    prompt_tokens: int,
    prefill: Measurement,
    max_new_tokens: int,
) -> GenerationResult:
    """Greedy decoding from a prefilled cache whose last forward gave `logits`; the result of the whole call."""
    eos = _eos_ids(lm)
    new: list[int] = []
    forwards = 0
    with Meter(lm.device) as decoding:
        for _ in range(max_new_tokens):
            token = int(logits[0, -1].argmax())
            if token in eos:
                break
            new.append(token)
            if len(new) < max_new_tokens:
                logits = forward(lm, torch.tensor([[token]], device=lm.device), cache, attention)
                forwards += 1
    return GenerationResult(
        mode=cfg.mode,
        text=lm.tokenizer.decode(new, skip_special_tokens=True),
        prompt_tokens=prompt_tokens,
        new_tokens=len(new),
        decode_forwards=forwards,
        prefill=prefill,
        decode=decoding.result,
        indexer_passes=attention.indexer_passes,
        indexer_passes_by_layer=dict(sorted(attention.indexer_calls.items())),
        index_overlap=attention.mean_overlap(),
        index_overlap_by_layer={
            layer: t.share for layer, t in sorted(attention.overlap.items()) if t.share is not None
        },
        attention=asdict(cfg),
        index_recall=attention.mean_recall(),
        index_recall_by_layer={layer: t.share for layer, t in sorted(attention.recall.items()) if t.share is not None},
    )


@torch.inference_mode()
def top1_predictions(lm: LoadedModel, ids: list[int], cfg: AttentionConfig) -> torch.Tensor:
    """The greedy next token at every position of ids, in one prefill: [T]."""
    check_length(lm, len(ids))
    attention = attention_for(lm, cfg)
    inputs = torch.tensor([ids], device=lm.device)
    hidden = lm.model.base_model(input_ids=inputs, sparse_attention=attention).last_hidden_state[0]
    head = lm.model.get_output_embeddings()
    return torch.cat([head(hidden[i : i + _LOGIT_ROWS]).argmax(-1) for i in range(0, len(ids), _LOGIT_ROWS)])


def top1_agreement(lm: LoadedModel, ids: list[int], cfg: AttentionConfig, reference: torch.Tensor) -> float:
    """Share of positions where cfg's greedy next token equals the reference's."""
    return float((top1_predictions(lm, ids, cfg) == reference).float().mean())


def forward(
    lm: LoadedModel, ids: torch.Tensor, cache: DynamicCache, attention: SparseAttention, logits_to_keep: int = 1
) -> torch.Tensor:
    """One forward pass of ids [1, T] after what the cache holds, which it appends to: logits [1, kept, V].

    logits_to_keep: the last positions to score (0: all of them).
    """
    cache_arg = {lm.cache_keyword: cache}
    out = lm.model(
        input_ids=ids, use_cache=True, logits_to_keep=logits_to_keep, sparse_attention=attention, **cache_arg
    )
    return out.logits


def _eos_ids(lm: LoadedModel) -> set[int]:
    eos = lm.model.generation_config.eos_token_id
    if eos is None:
        eos = lm.tokenizer.eos_token_id
    return set(eos if isinstance(eos, list) else [eos]) - {None}
