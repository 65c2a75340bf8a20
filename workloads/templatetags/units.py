"""The template filters and tags that show numbers and names as people read them (workloads.formatting), and a
strategy's accuracy with its interval."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from engine.core.stats import wilson
from workloads.formatting import count_of, dollars, flops, kind, percent, seconds, signed, strategies, strategy

register = template.Library()
register.filter("strategy", strategy)
register.filter("strategies", strategies)
register.filter("dollars", dollars)
register.filter("flops", flops)
register.filter("percent", percent)
register.filter("seconds", seconds)
register.filter("signed", signed)
register.filter("count_of", count_of)
register.filter("kind", kind)


@register.simple_tag
def accuracy_with_interval(result) -> str:
    """"56% (27–81%) of 9" and the gate's call, for a StrategyResult; its interval is computed from the counts when
    the run was measured before intervals were kept. Token F1 is for the run page's measurement details."""
    n = result.n_probes
    low, high = result.accuracy_low, result.accuracy_high
    if low is None or high is None:
        low, high = wilson(round((result.accuracy or 0) * n), n)
    call = result.gate or ("gated" if result.gated else "")
    badge = {"gated": ("gated", "quality-gated"), "cannot_tell": ("unsure", "cannot tell yet")}.get(call)
    return format_html('{} <small>({}–{}) of {}</small>{}', percent(result.accuracy), percent(low), percent(high),
                       n, format_html(' <span class="{}">{}</span>', *badge) if badge else "")
