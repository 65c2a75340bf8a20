"""With dense attention and greedy decoding, continuing from the documents' cache answers as the whole prompt does.

In float32. In bfloat16 a prompt prefilled in two pieces (documents, then question) rounds differently from one
pass, and on the sample one answer's 24th token flips on a near tie (measured); the cache computes exactly what a
two-piece prefill does (tests/engine/test_cached_prefix_selects_like_a_two_piece_prefill.py).
"""

import pytest
import torch

from engine.strategies import prompts
from engine.attention import AttentionConfig
from engine.core.documents import read_documents
from engine.model.generate import generate
from engine.model.loader import load_model
from engine.strategies.prefix import generate_from, prefill_prefix, shared_prefix_length
from engine.core.probes import load_probes
from engine.core.run_settings import ANSWER_TOKENS
from tests.engine.conftest import SAMPLES

pytestmark = pytest.mark.model

DENSE = AttentionConfig(mode="dense")


@pytest.fixture(scope="module")
def smollm2_fp32():
    return load_model(dtype=torch.float32)


def test_every_sample_probe_gets_the_same_tokens_from_the_cache(smollm2_fp32):
    lm = smollm2_fp32
    documents = read_documents(sorted((SAMPLES / "workload").glob("*.txt")))
    probes = load_probes(SAMPLES / "workload" / "probes.jsonl")
    whole = [prompts.full_prompt(lm, documents, p.question) for p in probes]
    length = shared_prefix_length(whole)
    assert length > 0.9 * min(map(len, whole))  # the documents, not just the chat template, are cached
    prefix = prefill_prefix(lm, whole[0][:length], DENSE)
    for ids in whole:
        whole = generate(lm, ids, DENSE, ANSWER_TOKENS)
        cached = generate_from(lm, prefix, ids[length:], ANSWER_TOKENS)
        assert (cached.text, cached.new_tokens) == (whole.text, whole.new_tokens)
        assert cached.prompt_tokens == len(ids)
        assert prefix.cache.get_seq_length() == length  # cut back for the next question
