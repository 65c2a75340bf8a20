"""A workload longer than the model's positions: full-context strategies refuse, never truncate."""

import pytest

from engine.strategies import compare as cmp
from engine.strategies.work import Prices
from engine.core import run_settings
from engine.core.documents import DocumentText
from engine.core.errors import EngineError
from engine.core.probes import ProbeQuestion

pytestmark = pytest.mark.model


def test_full_context_strategies_refuse_and_say_why(smollm2):
    long_doc = DocumentText("long.txt", "A long paragraph about pallets and deliveries. " * 1200)
    work = cmp.ComparisonWork([long_doc], [ProbeQuestion("What arrives?", "pallets")],
                              strategies=["full_dense", "full_index_share"])
    report = cmp.compare(smollm2, work)
    for name in ("full_dense", "full_index_share"):
        refused = report["strategies"][name]["refused"]
        assert "8192" in refused and "refuse rather than truncate" in refused


def test_it_rejects_a_chunk_larger_than_the_models_positions(smollm2):
    work = cmp.ComparisonWork(
        [DocumentText("a.txt", "Some text.")], [ProbeQuestion("Q?", "A")], strategies=["chunked"], chunk_tokens=9000
    )
    with pytest.raises(EngineError, match="chunk size must be between 16 and 7936"):
        cmp.compare(smollm2, work)


def test_chunked_refuses_before_running_when_its_reduce_call_could_overflow(smollm2):
    many_chunks = DocumentText("log.txt", "\n\n".join(f"Entry {i}: the pallet count was {i}." for i in range(600)))
    work = cmp.ComparisonWork(
        [many_chunks], [ProbeQuestion("What was the pallet count?", "7")],
        strategies=["chunked"], chunk_tokens=16, chunk_overlap=0,
    )
    calls = []
    with pytest.raises(EngineError, match="use larger chunks or a shorter question"):
        cmp.compare(smollm2, work, progress=lambda *a: calls.append(a))
    assert calls == [], "nothing ran"


def test_it_rejects_unknown_strategies_and_bad_prices():
    with pytest.raises(EngineError, match="unknown strategy 'full_magic'"):
        run_settings.check_strategies(["full_dense", "full_magic"])
    with pytest.raises(EngineError, match="must be a number, 0 or more"):
        Prices(-1.0, 0.1, 0.2)
