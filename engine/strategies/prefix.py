"""Full context with a cached document prefix: the documents are prefilled once, every question continues.

A business asks many questions of the same documents. Self-hosted, their keys and values are computed once
(`prefill_prefix`), and each question's tokens run against that cache (`generate_from`), which is then cut back to
the prefix for the next question. The question's tokens are the second piece of a two-piece chunked prefill whose
boundary is the prefix's end, so they select from the cached keys by the same rules as `generate(...,
prefill_chunk=len(prefix))` would: the query layout puts them at their absolute positions on the block grid, and
the sparse roles derive causality from those positions.

Attention state (engine.attention.state): each question gets a fresh `SparseAttention`. A group's shared selection
lives for one forward pass only, and no key-derived state (no pooled key means, no selection) is kept between
forwards, so nothing computed for one question's tokens reaches the next; the counters of a fresh object count
that question's indexer passes alone.

The cache is transformers' DynamicCache (its layers appending in place: engine.model.kv_cache), cut back with its
own `crop`. transformers 5.24 (here) and 5.17 (the GPU image) both take a negative count of tokens to remove (5.17
still accepts the older positive "length to keep", with a deprecation warning; 5.24 refuses it), so the negative
form is the one used. Layers with a native sliding
window (Gemma3) keep only their window unless they record the past, and then could not be cut back: past
recording is switched on for the prefix's cache, and `crop` trims them back to their window afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from transformers import DynamicCache

from engine.attention import AttentionConfig
from engine.core.errors import EngineError
from engine.model.generate import (
    GenerationResult, attention_for, check_length, check_new_tokens, decode, forward,
)
from engine.model.measure import Measurement, Meter
from engine.model.kv_cache import appending_cache
from engine.model.loader import LoadedModel


@dataclass
class PrefixCache:
    """The keys and values of a prefix, computed once, in one attention configuration."""

    cfg: AttentionConfig  # the keys of layer l depend on the attention of the layers before it: one mode per cache
    cache: DynamicCache
    length: int  # tokens in the prefix
    prefill: Measurement
    indexer_passes: int


def shared_prefix_length(prompts: Sequence[Sequence[int]]) -> int:
    """Tokens the prompts share at their start (longest common prefix), at most the shortest prompt minus 1.

    Computed on token ids rather than on text, so a tokenizer that merges the documents' last characters with the
    question's first ones moves the boundary rather than breaking exactness. Every prompt keeps at least one token
    of its own: the question's forward must score the next token.
    """
    if not prompts:
        raise EngineError("there are no prompts to share a prefix")
    shortest = min(len(p) for p in prompts)
    if shortest < 2:
        raise EngineError("a prompt needs 2 tokens or more to continue from a shared prefix")
    first = prompts[0]
    length = 0
    while length < shortest - 1 and all(p[length] == first[length] for p in prompts):
        length += 1
    return length


@torch.inference_mode()
def prefill_prefix(lm: LoadedModel, prefix_ids: Sequence[int], cfg: AttentionConfig) -> PrefixCache:
    """Prefill prefix_ids once into a cache that `generate_from` continues from, question after question."""
    if not prefix_ids:
        raise EngineError("the prefix is empty")
    check_length(lm, len(prefix_ids), "the prefix")
    attention = attention_for(lm, cfg)
    # The documents end in no question: their last queries keep the documents' budget (AttentionConfig.answer_topk
    # is for the questions that continue from them, in generate_from).
    attention.answer_tail = False
    cache = appending_cache(lm.config)
    cache.activate_past_recording()
    with Meter(lm.device) as prefill:
        forward(lm, torch.tensor([list(prefix_ids)], device=lm.device), cache, attention)
        cache.crop(0)  # sliding-window layers: keep only the window of the prefix's keys
    return PrefixCache(cfg, cache, len(prefix_ids), prefill.result, attention.indexer_passes)


@torch.inference_mode()
def generate_from(
    lm: LoadedModel, prefix: PrefixCache, suffix_ids: Sequence[int], max_new_tokens: int = 64
) -> GenerationResult:
    """Greedy continuation of prefix + suffix_ids, in the prefix's attention configuration.

    The result's prefill is the suffix's forward alone and its prompt_tokens count the positions (prefix and
    suffix); the prefix's cache is back to the prefix alone afterwards, whatever happened.
    """
    if not suffix_ids:
        raise EngineError("the question adds no tokens to the cached prefix")
    check_new_tokens(max_new_tokens)
    prompt_tokens = prefix.length + len(suffix_ids)
    check_length(lm, prompt_tokens + max_new_tokens, "the prefix, the question and the new tokens")
    assert prefix.cache.get_seq_length() == prefix.length, "the prefix's cache holds another question's tokens"
    attention = attention_for(lm, prefix.cfg)
    try:
        with Meter(lm.device) as prefill:
            logits = forward(lm, torch.tensor([list(suffix_ids)], device=lm.device), prefix.cache, attention)
        return decode(lm, prefix.cfg, attention, prefix.cache, logits, prompt_tokens, prefill.result, max_new_tokens)
    finally:
        prefix.cache.crop(prefix.length - prefix.cache.get_seq_length())
