"""What a comparison through an endpoint may spend. Before any call, its estimate is checked against the
organisation's caps, set by an admin: the run's, and the month's with what the organisation's endpoint calls were
billed since the month began (on its clock). Then every reply is billed and kept as it arrives (EndpointCall), and
the run stops at the first reply that reaches a cap: at most one call past it, since a reply's size is known only
once it is billed. An endpoint billed at no price-book entry (a server on the business's own GPU box) spends nothing
the app can count: its replies are kept unpriced and no cap stops it.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.db.models import Sum
from django.utils import timezone

from workloads.comparisons.pricing import billed_dollars
from workloads.formatting import dollars
from workloads.models import ApiPrice, ComparisonRun, EndpointCall, Organisation


class OverCap(Exception):
    """The run's estimate exceeds a cap: it does not start. The message says which cap and by how much."""


def month_spent(organisation: Organisation, now: dt.datetime | None = None) -> float:
    """What the organisation's endpoint calls were billed since its month began, on its own clock."""
    local = timezone.localtime(now or timezone.now(), zoneinfo.ZoneInfo(organisation.timezone))
    start = local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    calls = EndpointCall.objects.filter(run__workload__organisation=organisation, created_at__gte=start)
    return calls.aggregate(total=Sum("dollars"))["total"] or 0.0


def run_spent(run: ComparisonRun) -> float:
    return run.endpoint_calls.aggregate(total=Sum("dollars"))["total"] or 0.0


def check_estimate(run: ComparisonRun, price: ApiPrice, tokens_in: int, tokens_out: int) -> float:
    """The run's estimate in dollars (every planned token at the uncached input price: at most what it can bill);
    OverCap where it exceeds the run's cap, or the month's with what was spent this month. A run taken over from a
    dead worker counts what it already spent as spent, not twice."""
    estimate = billed_dollars(tokens_in, 0, tokens_out, price)
    organisation = run.workload.organisation
    said = f"this comparison could bill up to {dollars(estimate)} ({tokens_in:,} tokens in, {tokens_out:,} out)"
    cap = organisation.endpoint_run_cap
    if cap is not None and estimate > float(cap):
        raise OverCap(f"{said}, over the cap of {dollars(float(cap))} a run that an admin set: it did not start")
    cap = organisation.endpoint_month_cap
    spent = month_spent(organisation) - run_spent(run)
    if cap is not None and spent + estimate > float(cap):
        raise OverCap(f"{said}; with {dollars(spent)} spent this month that passes the month's cap of "
                      f"{dollars(float(cap))} that an admin set: it did not start")
    return estimate


class Spending:
    """The run's `keep` and `spend` for engine.strategies.endpoint_compare: each reply stored with its bill, then the
    caps checked."""

    def __init__(self, run: ComparisonRun, price: ApiPrice | None):
        self.run, self.price = run, price
        organisation = run.workload.organisation
        self.run_cap, self.month_cap = organisation.endpoint_run_cap, organisation.endpoint_month_cap
        self.run_total, self.month_total = run_spent(run), month_spent(organisation)

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
