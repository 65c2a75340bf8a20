"""The needle grid: facts planted in real text at several depths and lengths, asked under each attention setting.

In the manner of RULER's needle tests, on the user's own documents (the samples' by default):
for each length, the text is cut to fill the prompt, one fact ("The annual renewal fee for
{company} is {N} euros.") is planted at a paragraph break nearest each depth, and the model is
asked for N. Every setting (an attention mode, an indexer, a budget) answers the same prompts,
so the comparison is paired. Per prompt and setting it records whether the answer holds N,
the recall of dense attention's own top blocks at the question (engine.attention.state), and
the ledger's FLOPs for the call.

A sparse setting's budget is a share of the prompt's tokens: for each prompt its top-k is what is left
of that share after the sink, the window and the strided global blocks.
"""

from __future__ import annotations

import logging
import platform
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.core import ledger
from engine.attention import MODES, AttentionConfig
from engine.core.documents import DocumentText, read_documents
from engine.core.errors import EngineError

log = logging.getLogger(__name__)

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
DEPTHS = (0.1, 0.3, 0.5, 0.7, 0.9)
# Names no sample document uses, so the only answer in the text is the planted one.
_COMPANIES = (
    "Halvorsen Logistics", "Brightwater Dental", "Okafor Textiles", "Marlowe Glassworks",
    "Tidewell Bakery", "Vesta Optics", "Quillon Freight", "Ashgrove Nurseries",
)
# New tokens for the answer: " {N} euros." (one token a digit).
ANSWER_TOKENS = 8


@dataclass(frozen=True)
class Fact:
    company: str
    amount: int

    @property
    def sentence(self) -> str:
        return f"The annual renewal fee for {self.company} is {self.amount} euros."

    @property
    def question(self) -> str:
        return f"What is the annual renewal fee for {self.company}? Answer with the number."

    @property
    def answer_start(self) -> str:
        """The answer's first words, put in the model's mouth (as RULER's templates do), so that its first
        new tokens are the number rather than a restated question: fewer decode steps to pay for."""
        return f"The annual renewal fee for {self.company} is"

    def answered_by(self, text: str) -> bool:
        return str(self.amount) in text.replace(",", "").replace(" ", "")


def facts(n: int) -> list[Fact]:
    """n distinct facts, the same on every run (a paired grid needs the same prompts)."""
    if not 1 <= n <= len(_COMPANIES):
        raise EngineError(f"facts per cell must be between 1 and {len(_COMPANIES)}, got {n}")
    return [_fact(i) for i in range(n)]


def _fact(i: int) -> Fact:
    return Fact(_COMPANIES[i], 1000 + (i * 7919 + 2963) % 9000)


def distractors_of(fact: Fact, n: int) -> list[Fact]:
    """n facts of the same shape about the companies after fact's (cyclically): each names another company and
    another fee, so a selection that keeps the wrong one gives a plausible wrong answer rather than none."""
    if not 0 <= n < len(_COMPANIES):
        raise EngineError(f"distractors must be between 0 and {len(_COMPANIES) - 1}, got {n}")
    first = _COMPANIES.index(fact.company)
    return [_fact((first + 1 + i) % len(_COMPANIES)) for i in range(n)]


# How a setting's anchor layers are chosen (run_settings.ANCHORS), and the suffix that names it: "+cal" on the model's
# calibration text (once), "+doc" on each prompt's own first WORKLOAD_TOKENS, as a run calibrates on its documents.
ANCHOR_SUFFIXES = {"calibrated": "+cal", "workload": "+doc"}


CACHED_SUFFIX = "+cached"


@dataclass(frozen=True)
class Setting:
    """One column of the grid: a mode, an indexer and a budget (a share of the prompt's length, or 0 for the base's
    own fixed top-k), asked in one pass or continuing from the documents' cached prefix (engine.strategies.prefix)."""

    mode: str
    indexer: str = "pooled"
    budget: float = 0.25
    base: AttentionConfig = AttentionConfig(window=128, global_blocks=0)
    anchors: str = "uniform"  # index_share's anchor layers: "uniform", or calibrated as ANCHOR_SUFFIXES says
    cached: bool = False  # the prompt's documents prefilled first, the question continuing from their cache

    @property
    def name(self) -> str:
        cached = CACHED_SUFFIX if self.cached else ""
        if self.mode in ("dense", "sliding_window"):
            return self.mode + cached
        budget = f"{self.budget:g}" if self.budget else f"{self.base.budget_tokens}"
        return f"{self.mode}:{self.indexer}{ANCHOR_SUFFIXES.get(self.anchors, '')}@{budget}{cached}"

    def config(self, length: int, anchors: tuple[int, ...] | None = None) -> AttentionConfig:
        """The attention settings at a prompt of `length` tokens: top-k fills the budget's share."""
        cfg = self.base.replace(mode=self.mode, indexer=self.indexer, anchor_layers=anchors)
        if self.mode == "dense" or not self.budget:
            return cfg
        b = cfg.block_size
        fixed = (cfg.sink_blocks + cfg.window_blocks + cfg.global_blocks) * b
        topk = int(self.budget * length) // b * b - fixed
        if topk < b:
            raise EngineError(
                f"a budget of {self.budget:g} x {length} tokens leaves no room for top-k after the sink, "
                f"window and global blocks ({fixed} tokens): raise the budget or lower the window"
            )
        return cfg.replace(topk=topk)


def parse_setting(text: str, budget: float, base: AttentionConfig) -> Setting:
    """'dense', 'sliding_window', 'mode:indexer' (index_share:mass), or with calibrated anchor layers
    'index_share:indexer+cal' (the model's calibration text) or 'index_share:indexer+doc' (each prompt's own).
    '@0.125' after the indexer gives the setting its own budget share, '@fixed' the base's own top-k, window and
    global blocks whatever the length (as runs use them); '+cached' at the end asks it from the cached prefix."""
    cached = text.endswith(CACHED_SUFFIX)
    text, _, own_budget = text.removesuffix(CACHED_SUFFIX).partition("@")
    if own_budget:
        budget = _budget_share(own_budget, text)
    if budget is not None and not 0 < budget <= 1:
        raise EngineError(f"the budget is a share of the prompt's length, above 0 and at most 1; got {budget}")
    budget = budget or 0.0  # @fixed: the base's own top-k
    mode, _, indexer = text.partition(":")
    if mode not in MODES:
        raise EngineError(f"unknown attention mode {mode!r} in setting {text!r}; choose one of {', '.join(MODES)}")
    anchors = next((a for a, suffix in ANCHOR_SUFFIXES.items() if indexer.endswith(suffix)), "uniform")
    if anchors != "uniform" and mode != "index_share":
        raise EngineError(f"only index_share has anchor layers to calibrate, not {mode} ({text!r})")
    indexer = indexer.removesuffix(ANCHOR_SUFFIXES.get(anchors, ""))
    setting = Setting(mode, indexer or base.indexer, budget, base, anchors, cached)
    setting.config(4096)  # the indexer's name and the settings are checked here, before any model loads
    return setting


def _budget_share(text: str, setting: str) -> float | None:
    """A setting's own budget: a share, or None for @fixed."""
    if text == "fixed":
        return None
    try:
        return float(text)
    except ValueError:
        raise EngineError(f"a setting's budget is a share such as @0.125, or @fixed; got @{text} in {setting!r}")


def default_documents() -> list[DocumentText]:
    """The samples' documents: the two licences first (long, plain prose), then the workload's files."""
    paths = sorted((SAMPLES / "contracts").glob("*.txt")) + sorted((SAMPLES / "workload").glob("*.txt"))
    return read_documents(paths)


def planted_prompt(
    lm, haystack: str, fact: Fact, length: int, depth: float, distractors: Sequence[Fact] = ()
) -> tuple[list[int], float]:
    """Prompt ids of at most `length` tokens: the haystack cut to fit, the fact at the paragraph break
    nearest `depth`, each distractor at the break nearest its own depth (spread evenly around the fact's, see
    _distractor_depths), then the question. Returns (ids, the fact's depth in the prompt's tokens)."""
    ids, where, _ = _planted(lm, haystack, fact, length, depth, distractors)
    return ids, where


def planted_with_prefix(
    lm, haystack: str, fact: Fact, length: int, depth: float, distractors: Sequence[Fact] = ()
) -> tuple[list[int], int]:
    """planted_prompt's ids, and how many of them a cached prefix holds: the tokens the prompt shares with the same
    documents asked about another company, as a run's cached prefix is what its probes' prompts share."""
    ids, _, body = _planted(lm, haystack, fact, length, depth, distractors)
    return ids, _prefix_length(lm, ids, body, fact, distractors)


def _prefix_length(lm, ids: list[int], body: str, fact: Fact, distractors: Sequence[Fact]) -> int:
    from engine.model.generate import encode_prompt
    from engine.strategies.prefix import shared_prefix_length

    other = next(f for f in (*distractors, *facts(len(_COMPANIES))) if f.company != fact.company)
    other_ids = encode_prompt(lm, f"{body}\n\n{other.question}") + _start_ids(lm, other)
    return shared_prefix_length([ids, other_ids])


def _planted(lm, haystack: str, fact: Fact, length: int, depth: float, distractors: Sequence[Fact]):
    """(ids, the fact's depth in the prompt's tokens, the documents' text with every fact planted)."""
    from engine.model.generate import encode_prompt

    tok = lm.tokenizer
    hay_ids = tok(haystack, add_special_tokens=False)["input_ids"]
    start = _start_ids(lm, fact)
    planted = [(depth, fact), *zip(_distractor_depths(depth, len(distractors)), distractors)]
    sentences = "\n\n".join(f.sentence for _, f in planted)
    overhead = len(encode_prompt(lm, f"{sentences}\n\n{fact.question}")) + len(start) + 8 * len(planted)
    room = length - overhead
    if room < 64:
        raise EngineError(f"a {length}-token prompt leaves no room for text around the facts")
    if len(hay_ids) < room:
        raise EngineError(f"the documents hold {len(hay_ids)} tokens; a {length}-token prompt needs {room}")
    for _ in range(4):  # re-tokenising the joined text can differ by a few tokens: trim until it fits
        cut = tok.decode(hay_ids[:room])
        body, before = _plant(cut, planted, fact)
        ids = encode_prompt(lm, f"{body}\n\n{fact.question}") + start
        if len(ids) <= length:
            return ids, len(encode_prompt(lm, before)) / len(ids), body
        room -= len(ids) - length
    raise EngineError(f"could not fit the prompt into {length} tokens")


def _plant(text: str, planted: Sequence[tuple[float, Fact]], asked: Fact) -> tuple[str, str]:
    """text with each fact's sentence at the break nearest its depth; returns (that text, the part before the
    asked fact). Facts go in from the end backwards, so the break positions not yet used stay valid."""
    at = sorted(((_break_near(text, d), f) for d, f in planted), key=lambda p: p[0], reverse=True)
    for i, fact in at:
        text = f"{text[:i].rstrip()}\n\n{fact.sentence}\n\n{text[i:].lstrip()}"
    return text, text[: text.index(asked.sentence)].rstrip()


def _distractor_depths(depth: float, n: int) -> list[float]:
    """n depths spread evenly around the asked fact's (wrapping past the end), so the distractors sit before and
    after it at every depth of the grid."""
    return [(depth + (i + 1) / (n + 1)) % 1 for i in range(n)]


def _start_ids(lm, fact: Fact) -> list[int]:
    return lm.tokenizer(fact.answer_start, add_special_tokens=False)["input_ids"]


def _break_near(text: str, depth: float) -> int:
    """The paragraph break (else line break, else sentence end) nearest depth * len(text)."""
    target = int(depth * len(text))
    for sep in ("\n\n", "\n", ". "):
        starts = [i + len(sep) for i in _find_all(text, sep)]
        if starts:
            return min(starts, key=lambda i: abs(i - target))
    return target


def _find_all(text: str, sep: str) -> list[int]:
    found, i = [], text.find(sep)
    while i >= 0:
        found.append(i)
        i = text.find(sep, i + 1)
    return found


def check_grid(
    settings: Sequence[Setting], lengths: Sequence[int], depths: Sequence[float], n_facts: int, distractors: int = 0
) -> None:
    """Everything about a grid that needs no model, so a command can refuse it before loading one."""
    facts(n_facts)
    distractors_of(facts(1)[0], distractors)
    if not settings or not lengths or not depths:
        raise EngineError("a grid needs at least one setting, one length and one depth")
    for length in lengths:
        if length < 256:
            raise EngineError(f"lengths start at 256 tokens, got {length}")
        for s in settings:
            s.config(length)
    for depth in depths:
        if not 0 <= depth <= 1:
            raise EngineError(f"depths are shares of the text, between 0 and 1; got {depth}")


def run_grid(
    lm,
    documents: Sequence[DocumentText],
    settings: Sequence[Setting],
    lengths: Sequence[int],
    depths: Sequence[float] = DEPTHS,
    n_facts: int = 2,
    progress: Callable[[str], None] = lambda message: None,
    partial: Callable[[dict], None] = lambda report: None,
    distractors: int = 0,
) -> dict:
    """Every setting on every (length, depth, fact) prompt; the report as JSON-ready data.

    distractors: facts of the same shape about other companies planted in the same prompt, spread around the
    asked one. Lengths run in the order given; `partial` gets the report so far after each prompt, so a long grid
    that is stopped still leaves what it measured."""
    check_grid(settings, lengths, depths, n_facts, distractors)
    for length in lengths:
        if length + ANSWER_TOKENS > lm.max_positions:
            raise EngineError(
                f"length {length} plus {ANSWER_TOKENS} answer tokens exceeds {lm.name}'s {lm.max_positions} positions"
            )
    haystack = "\n\n".join(d.text.strip() for d in documents)
    shape = ledger.from_hf_config(lm.config, lm.name)
    anchors = _anchors(lm, settings)
    rows = []
    started = time.time()
    for length in lengths:
        for depth in depths:
            for fact in facts(n_facts):
                others = distractors_of(fact, distractors)
                ids, where, body = _planted(lm, haystack, fact, length, depth, others)
                cached = any(s.cached for s in settings)
                prefix = _prefix_length(lm, ids, body, fact, others) if cached else None
                for s in settings:
                    # The budget is a share of the prompt itself.
                    cfg = s.config(len(ids), anchors.get(s.name) or _prompt_anchors(lm, s, ids))
                    result = _ask(lm, ids, cfg, prefix if s.cached else None)
                    costs = ledger.call_costs(shape, cfg, len(ids), result.decode_forwards)
                    rows.append({
                        "setting": s.name, "length": length, "depth": depth, "fact_depth": round(where, 4),
                        "prompt_tokens": len(ids), "company": fact.company, "answer": str(fact.amount),
                        "distractors": {f.company: f.amount for f in others},
                        "text": result.text, "correct": fact.answered_by(result.text),
                        "distractor_answered": any(f.answered_by(result.text) for f in others),
                        "cached_prefix_tokens": prefix if s.cached else None,
                        "recall": result.index_recall,
                        "recall_by_layer": {str(k): round(v, 3) for k, v in result.index_recall_by_layer.items()},
                        "flops": costs.total_flops,
                        "indexer_flops": costs.flops["indexer"], "indexer_passes": result.indexer_passes,
                        "budget_tokens": cfg.budget_tokens if cfg.mode != "dense" else len(ids),
                        "prefill_seconds": result.prefill.seconds,
                        "anchor_layers": list(cfg.anchor_layers) if cfg.anchor_layers else None,
                    })
                    verdict = "right" if rows[-1]["correct"] else "wrong"
                    progress(f"{length} tokens, depth {depth:g}, {s.name}: {verdict} ({result.text.strip()[:24]!r})")
                partial({**_report(lm, documents, settings, lengths, depths, n_facts, distractors, anchors, rows, started),
                         "partial": True})
    return _report(lm, documents, settings, lengths, depths, n_facts, distractors, anchors, rows, started)


def _ask(lm, ids: list[int], cfg: AttentionConfig, prefix_tokens: int | None):
    """One prompt's answer: in one pass (with the recall diagnostic for sparse modes), or its first prefix_tokens
    prefilled into a cache first and the rest continuing from it, as a cached strategy asks (no recall there)."""
    from engine.model.generate import generate
    from engine.strategies.prefix import generate_from, prefill_prefix

    if prefix_tokens is None:
        return generate(lm, ids, cfg, ANSWER_TOKENS, measure_recall=cfg.mode != "dense")
    return generate_from(lm, prefill_prefix(lm, ids[:prefix_tokens], cfg), ids[prefix_tokens:], ANSWER_TOKENS)


def _report(lm, documents, settings, lengths, depths, n_facts, distractors, anchors, rows, started) -> dict:
    return {
        "model": lm.name, "device": f"{lm.device} ({platform.processor() or platform.machine()})",
        "date": time.strftime("%Y-%m-%d", time.gmtime()), "seconds": round(time.time() - started, 1),
        "documents": [d.name for d in documents], "lengths": list(lengths), "depths": list(depths),
        "facts_per_cell": n_facts, "distractors_per_prompt": distractors,
        "settings": [{"name": s.name, **asdict(s), "base": asdict(s.base)} for s in settings],
        "anchor_layers": {name: list(layers) for name, layers in anchors.items()},
        "rows": rows, "summary": summarise(rows),
        "note": "prefill seconds include the recall diagnostic of sparse settings",
    }


def _anchors(lm, settings: Sequence[Setting]) -> dict[str, tuple[int, ...]]:
    """The anchor layers of settings calibrated on the model's text: stored in the model cache, or calibrated now on
    the calibration text, which the grid's haystack never holds."""
    wanted = [s for s in settings if s.anchors == "calibrated"]
    if not wanted:
        return {}
    from engine.evaluation import calibration

    ids = calibration.text_ids(lm)
    return {s.name: calibration.calibrated(lm, s.config(len(ids)), ids).anchor_layers for s in wanted}


def _prompt_anchors(lm, setting: Setting, ids: list[int]) -> tuple[int, ...] | None:
    """A "+doc" setting's anchor layers for this prompt: calibrated on its first WORKLOAD_TOKENS, as a run's are on
    its documents (not stored: every prompt is another text). None for the other settings."""
    if setting.anchors != "workload":
        return None
    from engine.evaluation import calibration

    cfg = setting.config(len(ids))
    return calibration.calibrate(lm, cfg, ids[:calibration.WORKLOAD_TOKENS], store=False).anchors


def summarise(rows: Sequence[dict]) -> dict:
    """Per setting: accuracy overall, per depth, per length and per cell; mean recall and FLOPs."""
    by_setting: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_setting[r["setting"]].append(r)
    out = {}
    for name, rs in by_setting.items():
        lengths, depths = sorted({r["length"] for r in rs}), sorted({r["depth"] for r in rs})
        recalls = [r["recall"] for r in rs if r["recall"] is not None]
        out[name] = {
            "accuracy": _share(rs),
            "by_depth": {str(d): _share([r for r in rs if r["depth"] == d]) for d in depths},
            "by_length": {str(n): _share([r for r in rs if r["length"] == n]) for n in lengths},
            # Only cells with prompts: a partial report (a grid still running, or stopped) lacks the rest.
            "cells": {f"{n}@{d}": _share(cell) for n in lengths for d in depths
                      if (cell := [r for r in rs if r["length"] == n and r["depth"] == d])},
            "recall": sum(recalls) / len(recalls) if recalls else None,
            # How often the answer was another company's fee: a selection that kept the wrong fact.
            "distractor_answers": sum(bool(r.get("distractor_answered")) for r in rs) / len(rs),
            "flops": sum(r["flops"] for r in rs) / len(rs),
            "prompts": len(rs),
        }
    return out


def _share(rs: Sequence[dict]) -> float:
    return sum(r["correct"] for r in rs) / len(rs)
