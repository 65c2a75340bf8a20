"""Each Triton kernel takes its torch reference's arguments and states the same shape contract in its docstring:
the first two paragraphs (what it computes; shapes, arguments and result) read the same, word for word."""

import inspect

import pytest

from engine.attention import indexers, reference
from engine.attention.kernels import exact_indexer, pooled_indexer, pooled_mass_indexer, sparse_decode, sparse_prefill

PAIRS = [
    (reference.block_sparse_attention, sparse_prefill.block_sparse_attention),
    (reference.sparse_decode, sparse_decode.sparse_decode),
    (indexers.pooled_scores, pooled_indexer.pooled_scores),
    (indexers.exact_scores, exact_indexer.exact_scores),
    (indexers.pooled_mass_scores, pooled_mass_indexer.pooled_mass_scores),
]
IDS = [ref.__name__ for ref, _ in PAIRS]


def _contract(function) -> list[str]:
    return inspect.cleandoc(function.__doc__).split("\n\n")[:2]


@pytest.mark.parametrize("ref,kernel", PAIRS, ids=IDS)
def test_the_kernel_takes_the_references_arguments_and_defaults(ref, kernel):
    ours = [(p.name, p.kind, p.default) for p in inspect.signature(kernel).parameters.values()]
    theirs = [(p.name, p.kind, p.default) for p in inspect.signature(ref).parameters.values()]
    assert ours == theirs


@pytest.mark.parametrize("ref,kernel", PAIRS, ids=IDS)
def test_the_kernels_docstring_states_the_references_contract(ref, kernel):
    contract = _contract(ref)
    assert len(contract) == 2 and "[B, H" in contract[1]  # a summary, then shapes
    assert _contract(kernel) == contract
