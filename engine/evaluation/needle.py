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

Join mode (hops=2): each fact is planted in two halves at two depths, "{company} is billed under tariff {T}." and
"Tariff {T}'s monthly fee is {N} euros.", and the question asks the company's fee, so the answer needs both halves;
the first depth holds every fact's first half, each later depth a second half, and accuracy is reported against
the distance between the halves.
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

    @property
    def sentences(self) -> tuple[str, ...]:
        """What is planted, one sentence per depth."""
        return (self.sentence,)

    def answered_by(self, text: str) -> bool:
        return _holds(text, self.amount)


@dataclass(frozen=True)
class Join:
    """A fact in two halves: which tariff the company is billed under, and that tariff's fee. The question names the
    company only, so the tariff code is the join key the model has to carry from the first half to the second."""

    company: str
    amount: int
    tariff: str

    @property
    def sentences(self) -> tuple[str, ...]:
        return (f"{self.company} is billed under tariff {self.tariff}.",
                f"Tariff {self.tariff}'s monthly fee is {self.amount} euros.")

    @property
    def question(self) -> str:
        return f"What is the monthly fee for {self.company}? Answer with the number."

    @property
    def answer_start(self) -> str:
        return f"The monthly fee for {self.company} is"

    def answered_by(self, text: str) -> bool:
        return _holds(text, self.amount)


def _holds(text: str, amount: int) -> bool:
    return str(amount) in text.replace(",", "").replace(" ", "")


HOPS = (1, 2)


def facts(n: int, hops: int = 1) -> list[Fact | Join]:
    """n distinct facts, the same on every run (a paired grid needs the same prompts): whole (hops 1) or in two
    halves (hops 2, Join)."""
    if not 1 <= n <= len(_COMPANIES):
        raise EngineError(f"facts per cell must be between 1 and {len(_COMPANIES)}, got {n}")
    if hops not in HOPS:
        raise EngineError(f"--hops is 1 (each fact in one sentence) or 2 (each fact in two halves), got {hops}")
    make = _join if hops == 2 else _fact
    return [make(i) for i in range(n)]


def _fact(i: int) -> Fact:
    return Fact(_COMPANIES[i], 1000 + (i * 7919 + 2963) % 9000)


def _join(i: int) -> Join:
    # A letter and two digits, distinct for every company: a code to carry between the halves, never a fee's digits.
    return Join(_COMPANIES[i], _fact(i).amount, f"{chr(65 + i * 5 % 26)}{10 + (i * 37 + 11) % 90}")


def distractors_of(fact: Fact | Join, n: int) -> list[Fact | Join]:
    """n facts of the same shape about the companies after fact's (cyclically): each names another company and
    another fee (and, for a join, another tariff), so a selection that keeps the wrong one gives a plausible wrong
    answer rather than none."""
    if not 0 <= n < len(_COMPANIES):
        raise EngineError(f"distractors must be between 0 and {len(_COMPANIES) - 1}, got {n}")
    first = _COMPANIES.index(fact.company)
    make = _join if isinstance(fact, Join) else _fact
    return [make((first + 1 + i) % len(_COMPANIES)) for i in range(n)]


def depth_pairs(depths: Sequence[float]) -> list[tuple[float, float]]:
    """Join mode's depths: the first half at the first depth, the second at each later one, so the distance between
    the halves grows across the grid while the first half stays put."""
    return [(depths[0], d) for d in depths[1:]]


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
    ids, where, _ = _planted(lm, haystack, fact, length, (depth,), distractors)
    return ids, where[0] / len(ids)


def planted_join(
    lm, haystack: str, join: Join, length: int, depths: tuple[float, float], distractors: Sequence[Join] = ()
) -> tuple[list[int], tuple[int, int]]:
    """planted_prompt for a join: its halves at the breaks nearest the two depths, each distractor's halves spread
    around them. Returns (ids, the token offsets at which the two halves start)."""
    ids, where, _ = _planted(lm, haystack, join, length, depths, distractors)
    return ids, (where[0], where[1])


def planted_with_prefix(
    lm, haystack: str, fact: Fact, length: int, depth: float, distractors: Sequence[Fact] = ()
) -> tuple[list[int], int]:
    """planted_prompt's ids, and how many of them a cached prefix holds: the tokens the prompt shares with the same
    documents asked about another company, as a run's cached prefix is what its probes' prompts share."""
    ids, _, body = _planted(lm, haystack, fact, length, (depth,), distractors)
    return ids, _prefix_length(lm, ids, body, fact, distractors)


def _prefix_length(lm, ids: list[int], body: str, fact: Fact | Join, distractors: Sequence[Fact | Join]) -> int:
    from engine.model.generate import encode_prompt
    from engine.strategies.prefix import shared_prefix_length

    hops = len(fact.sentences)
    other = next(f for f in (*distractors, *facts(len(_COMPANIES), hops)) if f.company != fact.company)
    other_ids = encode_prompt(lm, f"{body}\n\n{other.question}") + _start_ids(lm, other)
    return shared_prefix_length([ids, other_ids])


def _planted(lm, haystack: str, fact: Fact | Join, length: int, depths: Sequence[float],
             distractors: Sequence[Fact | Join]):
    """(ids, the token offset at which each of the fact's sentences starts, the documents' text with every fact
    planted). depths: one per sentence of the fact (Fact.sentences)."""
    from engine.model.generate import encode_prompt

    tok = lm.tokenizer
    hay_ids = tok(haystack, add_special_tokens=False)["input_ids"]
    start = _start_ids(lm, fact)
    planted = _placements(fact, depths, distractors)
    sentences = "\n\n".join(sentence for _, sentence in planted)
    overhead = len(encode_prompt(lm, f"{sentences}\n\n{fact.question}")) + len(start) + 8 * len(planted)
    room = length - overhead
    if room < 64:
        raise EngineError(f"a {length}-token prompt leaves no room for text around the facts")
    if len(hay_ids) < room:
        raise EngineError(f"the documents hold {len(hay_ids)} tokens; a {length}-token prompt needs {room}")
    for _ in range(4):  # re-tokenising the joined text can differ by a few tokens: trim until it fits
        cut = tok.decode(hay_ids[:room])
        body, befores = _plant(cut, planted, fact.sentences)
        ids = encode_prompt(lm, f"{body}\n\n{fact.question}") + start
        if len(ids) <= length:
            return ids, [len(encode_prompt(lm, before)) for before in befores], body
        room -= len(ids) - length
    raise EngineError(f"could not fit the prompt into {length} tokens")


def _placements(
    fact: Fact | Join, depths: Sequence[float], distractors: Sequence[Fact | Join]
) -> list[tuple[float, str]]:
    """(depth, sentence) for every sentence planted: the fact's at its depths, then each distractor's k-th sentence
    spread around the fact's k-th, so look-alikes of each half sit before and after it."""
    placed = list(zip(depths, fact.sentences, strict=True))
    for k, depth in enumerate(depths):
        spread = _distractor_depths(depth, len(distractors))
        placed += [(d, other.sentences[k]) for d, other in zip(spread, distractors)]
    return placed


def _plant(text: str, planted: Sequence[tuple[float, str]], asked: Sequence[str]) -> tuple[str, list[str]]:
    """text with each sentence at the break nearest its depth; returns (that text, the part before each asked
    sentence). Sentences go in from the end backwards, so the break positions not yet used stay valid."""
    at = sorted(((_break_near(text, d), sentence) for d, sentence in planted), key=lambda p: p[0], reverse=True)
    for i, sentence in at:
        text = f"{text[:i].rstrip()}\n\n{sentence}\n\n{text[i:].lstrip()}"
    return text, [text[: text.index(sentence)].rstrip() for sentence in asked]


def _distractor_depths(depth: float, n: int) -> list[float]:
    """n depths spread evenly around the asked fact's (wrapping past the end), so the distractors sit before and
    after it at every depth of the grid."""
    return [(depth + (i + 1) / (n + 1)) % 1 for i in range(n)]


def _start_ids(lm, fact: Fact | Join) -> list[int]:
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
    settings: Sequence[Setting], lengths: Sequence[int], depths: Sequence[float], n_facts: int, distractors: int = 0,
    hops: int = 1,
) -> None:
    """Everything about a grid that needs no model, so a command can refuse it before loading one."""
    facts(n_facts, hops)
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
    if hops == 2 and (len(depths) < 2 or any(d <= depths[0] for d in depths[1:])):
        raise EngineError(
            f"--hops 2 plants each fact's first half at the first depth and its second half at each later one, so it "
            f"needs two depths or more, each later one deeper than the first; got {','.join(f'{d:g}' for d in depths)}"
        )


def _cells(depths: Sequence[float], hops: int) -> list[tuple[float, ...]]:
    """The depths of each cell's prompts, one per sentence of a fact."""
    return depth_pairs(depths) if hops == 2 else [(d,) for d in depths]


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
    hops: int = 1,
) -> dict:
    """Every setting on every (length, depth, fact) prompt; the report as JSON-ready data.

    distractors: facts of the same shape about other companies planted in the same prompt, spread around the
    asked one. hops 2: each fact in two halves (Join), the first at depths[0] and the second at each later depth.
    Lengths run in the order given; `partial` gets the report so far after each prompt, so a long grid that is
    stopped still leaves what it measured."""
    check_grid(settings, lengths, depths, n_facts, distractors, hops)
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
        for cell in _cells(depths, hops):
            for fact in facts(n_facts, hops):
                others = distractors_of(fact, distractors)
                ids, where, body = _planted(lm, haystack, fact, length, cell, others)
                cached = any(s.cached for s in settings)
                prefix = _prefix_length(lm, ids, body, fact, others) if cached else None
                for s in settings:
                    # The budget is a share of the prompt itself.
                    cfg = s.config(len(ids), anchors.get(s.name) or _prompt_anchors(lm, s, ids))
                    result = _ask(lm, ids, cfg, prefix if s.cached else None)
                    costs = ledger.call_costs(shape, cfg, len(ids), result.decode_forwards)
                    rows.append({
                        "setting": s.name, "length": length, **_placement_fields(cell, where, len(ids)),
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
                    where_text = " and ".join(f"{d:g}" for d in cell)
                    progress(f"{length} tokens, depth {where_text}, {s.name}: {verdict} "
                             f"({result.text.strip()[:24]!r})")
                partial({**_report(lm, documents, settings, lengths, depths, n_facts, distractors, hops, anchors, rows,
                                   started), "partial": True})
    return _report(lm, documents, settings, lengths, depths, n_facts, distractors, hops, anchors, rows, started)


def _placement_fields(cell: tuple[float, ...], where: Sequence[int], tokens: int) -> dict:
    """A row's depths: the fact's (for a join, its second half's, where the fee is) as asked and in the prompt's
    tokens; for a join also the first half's and the distance between the halves, as a share and in tokens."""
    fields = {"depth": cell[-1], "fact_depth": round(where[-1] / tokens, 4)}
    if len(cell) == 2:
        fields.update({"first_depth": cell[0], "first_fact_depth": round(where[0] / tokens, 4),
                       "distance": round(cell[1] - cell[0], 4), "distance_tokens": where[1] - where[0]})
    return fields


def _ask(lm, ids: list[int], cfg: AttentionConfig, prefix_tokens: int | None):
    """One prompt's answer: in one pass (with the recall diagnostic for sparse modes), or its first prefix_tokens
    prefilled into a cache first and the rest continuing from it, as a cached strategy asks (no recall there)."""
    from engine.model.generate import generate
    from engine.strategies.prefix import generate_from, prefill_prefix

    if prefix_tokens is None:
        return generate(lm, ids, cfg, ANSWER_TOKENS, measure_recall=cfg.mode != "dense")
    return generate_from(lm, prefill_prefix(lm, ids[:prefix_tokens], cfg), ids[prefix_tokens:], ANSWER_TOKENS)


def _report(lm, documents, settings, lengths, depths, n_facts, distractors, hops, anchors, rows, started) -> dict:
    joins = {"depth_pairs": [list(p) for p in depth_pairs(depths)],
             "distances": [round(b - a, 4) for a, b in depth_pairs(depths)]} if hops == 2 else {}
    return {
        "model": lm.name, "device": f"{lm.device} ({platform.processor() or platform.machine()})",
        "date": time.strftime("%Y-%m-%d", time.gmtime()), "seconds": round(time.time() - started, 1),
        "documents": [d.name for d in documents], "lengths": list(lengths), "depths": list(depths),
        "facts_per_cell": n_facts, "distractors_per_prompt": distractors, "hops": hops, **joins,
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
    """Per setting: accuracy overall, per depth, per length and per cell; mean recall and FLOPs; for joins also per
    distance between the halves (_by_distance)."""
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
            **_by_distance(rs, lengths),
        }
    return out


def _by_distance(rs: Sequence[dict], lengths: Sequence[int]) -> dict:
    """A join's accuracy per distance between its halves (a share of the context), overall and per length, with the
    mean distance in tokens of each (length, distance) cell; nothing for rows without halves."""
    distances = sorted({r["distance"] for r in rs if "distance" in r})
    if not distances:
        return {}
    cells = {(n, d): cell for n in lengths for d in distances
             if (cell := [r for r in rs if r["length"] == n and r.get("distance") == d])}
    return {
        "by_distance": {str(d): _share([r for r in rs if r.get("distance") == d]) for d in distances},
        "distance_cells": {f"{n}@{d}": _share(cell) for (n, d), cell in cells.items()},
        "distance_tokens": {f"{n}@{d}": round(sum(r["distance_tokens"] for r in cell) / len(cell))
                            for (n, d), cell in cells.items()},
    }


def _share(rs: Sequence[dict]) -> float:
    return sum(r["correct"] for r in rs) / len(rs)
