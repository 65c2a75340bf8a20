"""FLOPs order full_index_share < full_naive_sparse < full_dense where the ledger says they should."""

import pytest

from engine.strategies import compare as cmp
from engine.core import ledger
from engine.attention import AttentionConfig
from engine.core.documents import DocumentText
from engine.core.probes import ProbeQuestion

pytestmark = pytest.mark.model

# A small budget and the exact indexer: past ~3K tokens the indexer costs more than
# index share saves on attention, so the three modes separate.
ATTENTION = AttentionConfig(window=256, topk=256, global_blocks=2, indexer="exact")


def test_a_4k_token_workload_costs_least_with_index_share(smollm2, gpl_text):
    ids = smollm2.tokenizer(gpl_text)["input_ids"][:4000]
    doc = DocumentText("gpl.txt", smollm2.tokenizer.decode(ids))
    shape = ledger.from_hf_config(smollm2.config, smollm2.name)
    predicted = {
        m: ledger.prefill_costs(shape, ATTENTION.replace(mode=m), 4000).total_flops
        for m in ("index_share", "naive_sparse", "dense")
    }
    assert predicted["index_share"] < predicted["naive_sparse"] < predicted["dense"]

    work = cmp.ComparisonWork(
        [doc], [ProbeQuestion("Who may copy this license?", "Everyone")],
        strategies=["full_index_share", "full_naive_sparse", "full_dense"], attention=ATTENTION, diagnostics=False,
    )
    flops = {name: s["flops"] for name, s in cmp.compare(smollm2, work)["strategies"].items()}
    print({name: f"{f['total'] / 1e12:.2f} TFLOP" for name, f in flops.items()})
    assert flops["full_index_share"]["total"] < flops["full_naive_sparse"]["total"] < flops["full_dense"]["total"]
    assert flops["full_index_share"]["indexer"] * 4 == pytest.approx(flops["full_naive_sparse"]["indexer"], rel=0.01)
    assert flops["full_dense"]["indexer"] == 0
