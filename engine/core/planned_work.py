"""The ledger's FLOPs of a strategy's planned calls (engine.core.call_plan) for one question. Torch-free: the planning
page projects with it and the pre-run check estimates a run's work with it.

A cached strategy's question continues from the documents' cache: its own calls are the question's tokens against
the cached keys, then the answer (ledger.continuation_costs), and the documents' prefill is a separate, one-off
piece of work that every question asked of those documents shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import ledger
from engine.core.attention_config import AttentionConfig
from engine.core.call_plan import QUESTION_TOKENS, Call
from engine.core.run_settings import ANSWER_TOKENS, CACHED_MODES


@dataclass(frozen=True)
class PlannedWork:
    question_flops: float  # one question's own calls
    prefill_flops: float = 0.0  # a cached strategy's one-off prefill of the documents; 0 for the others

    def per_question(self, questions: int) -> float:
        """A question's FLOPs with the prefill shared by `questions` questions of the same documents."""
        return self.question_flops + self.prefill_flops / max(questions, 1)


def planned_work(shape: ledger.ModelShape, cfg: AttentionConfig, strategy: str, plan: Sequence[Call],
                 escalation_share: float = 1.0) -> PlannedWork:
    """One question's work. An escalation (routed's whole-document call after its search's NONE) counts
    `escalation_share` of a time: the pre-run check plans for every question escalating, the planning page for
    the share a run measured."""
    if strategy in CACHED_MODES:
        (call,) = plan
        at = cfg.replace(mode=call.mode)
        prefix = call.prompt_tokens - QUESTION_TOKENS
        return PlannedWork(ledger.continuation_costs(shape, at, prefix, QUESTION_TOKENS, ANSWER_TOKENS).total_flops,
                           ledger.prefill_costs(shape, at, prefix, answer_tail=False).total_flops)
    return PlannedWork(sum(call.count * (escalation_share if call.escalation else 1.0)
                           * ledger.call_costs(shape, cfg.replace(mode=call.mode), call.prompt_tokens,
                                               ANSWER_TOKENS).total_flops for call in plan))
