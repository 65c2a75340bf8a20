"""How a device's speed follows the context length, from its measured profile, for planning's projection.

A run measures each strategy's seconds per ledger FLOP at the workload's own length, and the projection would
otherwise price every length at that one rate. On a CPU the rate moves with length: at 32K dense attention is about
two thirds of the default model's work and runs at another speed than the linear layers that dominate at 4K, and a
sparse mode's gather and indexer at yet another (benchmarks/profiles/cpu.json, a 2-core AMD EPYC: dense's prefill
took 2.06 s a ledger TFLOP at 4K and 4.15 at 32K, Index Share's 1.79 and 2.54). A device profile whose points carry
their ledger FLOPs (engine.core.device_profile) gives the rate at each measured length. The projection keeps the run's
own rate as the level, for the worker it ran on, and scales it by the profile's rate at each length over the
profile's rate at the run's length: the profile says how speed moves with length, the run how fast its worker is.
Between measured lengths the rate is interpolated in log length; outside them the nearest measured rate is held, and
the page labels those lengths extrapolated.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

# The whole-document strategies a profile speaks for, by the mode its points are keyed by; chunk calls keep their
# fixed size whatever the documents' length, so their rate needs no scaling.
MODES = {"full_dense": "dense", "full_naive_sparse": "naive_sparse", "full_index_share": "index_share",
         "full_dense_cached": "dense", "full_index_share_cached": "index_share"}
CACHED = ("full_dense_cached", "full_index_share_cached")
# A profile's longest CPU point is 32,704 tokens (Qwen's 32,768 positions less room for the answer): a projected
# length this close to a measured one is that measurement.
SAME_LENGTH = 0.01


@dataclass(frozen=True)
class LengthRates:
    question: dict[str, list[float]]  # strategy -> factor on its question rate at each projected length
    prefill: dict[str, list[float]]  # cached strategy -> factor on its prefill rate at each projected length
    basis: list[str]  # each projected length: "measured", "interpolated" or "extrapolated"
    note: str


def length_rates(profile: dict, indexer: str, lengths: list[int], run_tokens: int) -> LengthRates | None:
    """Rate factors over `lengths` for a run that measured its rates at `run_tokens` of documents; None when the
    profile has no points with FLOPs for the three whole-document modes."""
    curves = {}
    for mode in ("dense", "naive_sparse", "index_share"):
        points = profile["strategies"].get(mode if mode == "dense" else f"{mode}:{indexer}", {})
        with_flops = sorted((int(n), p) for n, p in points.items() if p.get("prefill_flops"))
        if not with_flops:
            return None
        curves[mode] = with_flops
    measured = sorted(set.intersection(*({n for n, _ in c} for c in curves.values())))
    if not measured:
        return None
    question, prefill = {}, {}
    for strategy, mode in MODES.items():
        points = curves[mode]
        # An uncached question is a prefill and its answer; a cached one reads its question and answers against
        # the cache, a decode's work; the cached documents' prefill is a prefill.
        rate = _decode_rate if strategy in CACHED else _question_rate
        question[strategy] = _factors([(n, rate(p, profile["answer_tokens"])) for n, p in points], lengths, run_tokens)
        if strategy in CACHED:
            prefill[strategy] = _factors([(n, _prefill_rate(p)) for n, p in points], lengths, run_tokens)
    basis = [_basis(n, measured) for n in lengths]
    note = (f"Whole-document device seconds per FLOP follow the length as measured on {profile['device']} on "
            f"{profile['date'][:10]} by {profile['source']} ({profile['model_shape']}, at "
            f"{', '.join(f'{n:,}' for n in measured)} tokens), scaled to this run's own rate at its "
            f"{run_tokens:,} tokens{_clamped(run_tokens, measured)}; lengths marked extrapolated hold the "
            f"{measured[-1]:,}-token rate.")
    return LengthRates(question, prefill, basis, note)


def _question_rate(point: dict, answer_tokens: int) -> float:
    return point["seconds_per_question"] / (point["prefill_flops"] + answer_tokens * point["decode_flops_per_token"])


def _decode_rate(point: dict, answer_tokens: int) -> float:
    return point["decode_s_per_token"] / point["decode_flops_per_token"]


def _prefill_rate(point: dict) -> float:
    return point["prefill_s"] / point["prefill_flops"]


def _factors(rates: list[tuple[int, float]], lengths: list[int], run_tokens: int) -> list[float]:
    """Each length's rate over the rate at the run's length."""
    xs = [math.log(n) for n, _ in rates]
    ys = [rate for _, rate in rates]
    at_run = _interpolate(xs, ys, math.log(max(run_tokens, 1)))
    return [_interpolate(xs, ys, math.log(n)) / at_run for n in lengths]


def _interpolate(xs: list[float], ys: list[float], x: float) -> float:
    """Piecewise linear in log length; the end values held outside the measured range."""
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, x)
    share = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
    return ys[i - 1] + share * (ys[i] - ys[i - 1])


def _basis(n: int, measured: list[int]) -> str:
    if any(abs(n - m) <= SAME_LENGTH * m for m in measured):
        return "measured"
    return "interpolated" if measured[0] < n < measured[-1] else "extrapolated"


def _clamped(run_tokens: int, measured: list[int]) -> str:
    basis = _basis(run_tokens, measured)
    if basis != "extrapolated":
        return ""
    nearest = measured[0] if run_tokens < measured[0] else measured[-1]
    return f" (outside the measured lengths: the profile's {nearest:,}-token rate stands for it)"
