"""A checkpoint of the default model's attention shape (Qwen2: 14 query heads over 2 KV heads of 64, tied embeddings,
RoPE theta 1,000,000), random and small elsewhere, gives transformers' own SDPA logits in every sparse mode when
the budget covers the whole prefix, for a prefill and for a decode step continuing from its cache."""

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, DynamicCache, Qwen2Config

from engine.attention import AttentionConfig
from engine.model.generate import attention_for
from engine.core.catalogue import SMOLLM2, model_dir
from engine.model.loader import load_model

QWEN2_SHAPE = dict(hidden_size=896, num_attention_heads=14, num_key_value_heads=2, head_dim=64,
                   tie_word_embeddings=True, rope_parameters={"rope_type": "default", "rope_theta": 1_000_000.0})


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    torch.manual_seed(0)
    config = Qwen2Config(**QWEN2_SHAPE, intermediate_size=256, num_hidden_layers=4, vocab_size=1000,
                         max_position_embeddings=1024)
    path = tmp_path_factory.mktemp("qwen2-shape")
    AutoModelForCausalLM.from_config(config, dtype=torch.float32).save_pretrained(path)
    AutoTokenizer.from_pretrained(model_dir(SMOLLM2)).save_pretrained(path)  # any tokenizer: the ids are random
    return path


@pytest.fixture(scope="module")
def models(checkpoint):
    ours = load_model(checkpoint, dtype=torch.float32, device="cpu")
    reference = AutoModelForCausalLM.from_pretrained(checkpoint, dtype=torch.float32, attn_implementation="sdpa")
    return ours, reference.eval()


def test_the_checkpoint_has_the_default_models_attention_shape(models):
    ours, _ = models
    shape = ours.metadata
    assert (shape.num_heads, shape.num_kv_heads, shape.head_dim) == (14, 2, 64)
    assert ours.text_config.tie_word_embeddings
    assert ours.model.lm_head.weight.data_ptr() == ours.model.model.embed_tokens.weight.data_ptr()


@pytest.mark.parametrize("mode", ["dense", "sliding_window", "naive_sparse", "index_share"])
@pytest.mark.parametrize("indexer", ["pooled", "exact"])
def test_a_budget_covering_the_prefix_gives_sdpas_logits(models, mode, indexer):
    ours, reference = models
    cfg = AttentionConfig(mode=mode, indexer=indexer, block_size=16, window=1024, topk=1024, dense_layers=0,
                          group_size=2)
    ids = torch.randint(0, 1000, (1, 150))  # not a whole number of blocks
    with torch.inference_mode():
        attention = attention_for(ours, cfg)
        cache = DynamicCache(config=ours.config)
        got = ours.model(input_ids=ids[:, :-1], sparse_attention=attention, **{ours.cache_keyword: cache}).logits
        step = ours.model(input_ids=ids[:, -1:], sparse_attention=attention, **{ours.cache_keyword: cache}).logits
        want = reference(input_ids=ids).logits
    assert float((got - want[:, :-1]).norm() / want[:, :-1].norm()) <= 1e-5
    assert float((step - want[:, -1:]).norm() / want[:, -1:].norm()) <= 1e-5
