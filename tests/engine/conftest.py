"""Shared fixtures: the real default model (loaded once), real sample text, random tensors."""

from pathlib import Path

import pytest
import torch

from engine.core.documents import DocumentText
from engine.core.catalogue import QWEN_05B
from engine.model.loader import load_model
from engine.core.probes import ProbeQuestion

SAMPLES = Path(__file__).resolve().parents[2] / "samples"

# A short memo and three probes on it (two ask for the same fact), for comparisons quick enough to run whole.
MEMO_DOCS = [DocumentText("memo.txt", "The monthly service fee is $4,500.\n\nDeliveries arrive on Tuesdays.\n\n" * 4)]
MEMO_PROBES = [
    ProbeQuestion("What is the monthly service fee?", "$4,500", "retrieval"),
    ProbeQuestion("When do deliveries arrive?", "Tuesdays", "retrieval"),
    ProbeQuestion("How much is the monthly fee?", "$4,500", "retrieval"),
]


@pytest.fixture(scope="session")
def smollm2():
    torch.manual_seed(0)
    return load_model()


@pytest.fixture(scope="session")
def qwen():
    """The default model, Qwen2.5-Coder-0.5B-Instruct, by name: pyproject's ENGINE_MODEL keeps every test that names
    no model on SmolLM2, which is 4 to 6 times quicker."""
    torch.manual_seed(0)
    return load_model(QWEN_05B.key)


@pytest.fixture(scope="session")
def gpl_text() -> str:
    return (SAMPLES / "contracts" / "gpl-3.0.txt").read_text()


def random_qkv(tq: int, tk: int, dtype=torch.float32, hq: int = 6, hkv: int = 2, d: int = 32):
    """Fresh random q [1, HQ, Tq, D] and k, v [1, HKV, Tk, D]."""
    return (
        torch.randn(1, hq, tq, d, dtype=dtype),
        torch.randn(1, hkv, tk, d, dtype=dtype),
        torch.randn(1, hkv, tk, d, dtype=dtype),
    )


def relative_error(out: torch.Tensor, ref: torch.Tensor) -> float:
    return float((out.float() - ref.float()).norm() / ref.float().norm())
