"""What a comparison through an endpoint may spend. Before it is queued, and again before its first call, its
estimate is checked against the organisation's caps, set by an admin: the run's, and the month's with what the
organisation's endpoint calls were billed since the month began (on its clock). Then every reply is billed and kept
as it arrives (EndpointCall), and the run stops at the first reply that reaches a cap: at most one call past it,
since a reply's size is known only once it is billed. An endpoint billed at no price-book entry (a server on the
business's own GPU box) spends nothing the app can count: its replies are kept unpriced and no cap stops it.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

from dataclasses import dataclass

from django.db.models import Sum
from django.utils import timezone

from engine.core import run_settings
from engine.core.call_plan import call_plan, calls, estimated_chunks
from engine.core.run_settings import ANSWER_TOKENS
from workloads.comparisons.pricing import billed_dollars
from workloads.formatting import dollars
from workloads.models import ApiPrice, ComparisonRun, EndpointCall, Organisation, Workload


class OverCap(Exception):
    """The run's estimate exceeds a cap: it does not start. The message says which cap and by how much."""


@dataclass(frozen=True)
class Estimate:
    """The most a run through an endpoint can bill: every planned token at the uncached input price, every answer
    at its longest."""

    tokens_in: int
    tokens_out: int
    dollars: float

    @classmethod
    def of(cls, tokens_in: int, tokens_out: int, price: ApiPrice) -> Estimate:
        return cls(tokens_in, tokens_out, billed_dollars(tokens_in, 0, tokens_out, price))

    @property
    def said(self) -> str:
        return (f"could bill up to {dollars(self.dollars)} ({self.tokens_in:,} tokens in, {self.tokens_out:,} out, "
                "as our tokenizer counts them)")


def planned(workload: Workload, strategies: list[str], values: dict, price: ApiPrice) -> Estimate:
    """The estimate before a run is queued, from the documents' stored token counts and the calls each strategy
    makes per question (engine.core.call_plan, as the planning counts them); the worker checks again with the
    run's real prompts."""
    settled = run_settings.check_values(values)
    tokens = list(workload.documents.values_list("tokens", flat=True))
    chunks = estimated_chunks(tokens, settled["chunk_tokens"], settled["chunk_overlap"])
    probes = workload.probes.count()
    plans = [call_plan(s, tokens, chunks, settled["retrieval_chunks"], settled["retrieval_tokens"])
             for s in run_settings.through_endpoint(strategies)]
    tokens_in = probes * sum(c.prompt_tokens * c.count for plan in plans for c in plan)
    return Estimate.of(tokens_in, probes * sum(calls(plan) for plan in plans) * ANSWER_TOKENS, price)


def check(organisation: Organisation, estimate: Estimate, spent_by_run: float = 0.0) -> None:
    """OverCap where the estimate exceeds the run's cap, or the month's with what was spent this month; a run taken
    over from a dead worker counts what it already spent (`spent_by_run`) as spent, not twice."""
    said = f"this comparison {estimate.said}"
    cap = organisation.endpoint_run_cap
    if cap is not None and estimate.dollars > float(cap):
        raise OverCap(f"{said}, over the cap of {dollars(float(cap))} a run that an admin set: it did not start")
    cap = organisation.endpoint_month_cap
    spent = month_spent(organisation) - spent_by_run
    if cap is not None and spent + estimate.dollars > float(cap):
        raise OverCap(f"{said}; with {dollars(spent)} spent this month that passes the month's cap of "
                      f"{dollars(float(cap))} that an admin set: it did not start")


def month_spent(organisation: Organisation, now: dt.datetime | None = None) -> float:
    """What the organisation's endpoint calls were billed since its month began, on its own clock."""
    local = timezone.localtime(now or timezone.now(), zoneinfo.ZoneInfo(organisation.timezone))
    start = local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    calls = EndpointCall.objects.filter(run__workload__organisation=organisation, created_at__gte=start)
    return calls.aggregate(total=Sum("dollars"))["total"] or 0.0


def run_spent(run: ComparisonRun) -> float:
    return run.endpoint_calls.aggregate(total=Sum("dollars"))["total"] or 0.0


class Spending:
    """The run's `keep` and `spend` for engine.strategies.endpoint_compare: each reply stored with its bill, then the
    caps checked."""

    def __init__(self, run: ComparisonRun, price: ApiPrice | None):
        self.run, self.price = run, price
        organisation = run.workload.organisation
        self.run_cap, self.month_cap = organisation.endpoint_run_cap, organisation.endpoint_month_cap
        self.run_total, self.month_total = run_spent(run), month_spent(organisation)

    def check_estimate(self, tokens_in: int, tokens_out: int) -> None:
        """The run's planned tokens (by the real prompts) against the caps before its first call: OverCap refuses
        it. A run billed at no entry spends nothing the caps count."""
        if self.price is not None:
            check(self.run.workload.organisation, Estimate.of(tokens_in, tokens_out, self.price), self.run_total)

    def answered(self) -> dict[str, dict]:
        """The replies the run already has, by call key."""
        return dict(self.run.endpoint_calls.values_list("key", "reply"))

    def keep(self, key: str, reply) -> None:
        bill = (billed_dollars(reply.prompt_tokens, reply.cached_tokens, reply.completion_tokens, self.price)
                if self.price is not None else None)
        EndpointCall.objects.create(run=self.run, key=key, reply=vars(reply), dollars=bill)
        self.run_total += bill or 0.0
        self.month_total += bill or 0.0

    def spend(self, _reply) -> str | None:
        """Why the run stops now, or None."""
        if self.price is None:
            return None
        if self.run_cap is not None and self.run_total >= float(self.run_cap):
            return (f"stopped at the run's cap of {dollars(float(self.run_cap))}: {dollars(self.run_total)} "
                    "billed")
        if self.month_cap is not None and self.month_total >= float(self.month_cap):
            return (f"stopped at the month's cap of {dollars(float(self.month_cap))}: "
                    f"{dollars(self.month_total)} billed this month")
        return None
