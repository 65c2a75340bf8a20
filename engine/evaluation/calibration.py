"""Calibrated anchor layers: which layers make the selection their Index Share group reuses, chosen once per model.

One dense forward over calibration text (samples/calibration, text_ids) records, in every sparse
layer, the attention mass that each of the text's last query blocks puts on each key block
(engine.attention.indexers.mass_scores, dense attention's own block mass). Layer a's selection is
its top-k blocks among those the indexer may pick (not sink, window or global blocks). For a later
layer l, coverage[a][l] is the share of l's mass on those pickable blocks that falls on a's picks:
how well a's selection serves l if l reuses it.

A small dynamic programme (as Kascade's) then splits the sparse layers into as many contiguous groups
as uniform groups of `group_size` make, each led by its first layer, maximising the summed coverage of
every layer by its group's leader. The indexer therefore runs as often as with uniform groups; only
where each group starts, and so its size, changes.

The result is kept as JSON in the model cache (engine.core.cache_paths.calibration_path), keyed by the
model and the settings that shape a selection, and used through AttentionConfig.anchor_layers.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

import torch

from engine.attention import AttentionConfig, LayerPlan
from engine.attention.indexers import mass_scores
from engine.attention.layout import QueryLayout
from engine.attention.reference import dense_attention
from engine.attention.selection import causal_blocks, forced_ids, select_topk
from engine.core.documents import read_documents
from engine.core.errors import EngineError
from engine.core.jsonfile import write_json_atomic
from engine.core.cache_paths import calibration_path
from engine.model.loader import LoadedModel

CALIBRATION_TEXT = Path(__file__).resolve().parents[2] / "samples" / "calibration"
# Query blocks at the end of the text whose attention is recorded: they see most of it, and one
# block row per layer keeps the recorded mass small (16 x NKB per KV head).
TAIL_BLOCKS = 16
_KEYED = ("block_size", "window", "sink_blocks", "global_blocks", "group_size", "dense_layers")
# Part of every stored calibration's key: a calibration made on other text is made again, not reused.
TEXT_VERSION = "mpl-2.0"
# A workload calibrates on its documents' first tokens: one dense forward of at most this many, once per document set
# (stored under the tokens' digest). Its last TAIL_BLOCKS query blocks see them all.
WORKLOAD_TOKENS = 4096


@dataclass(frozen=True)
class Calibration:
    model: str
    anchors: tuple[int, ...]
    sparse_layers: tuple[int, ...]
    coverage: list[list[float]]  # [i][j]: sparse layer i's selection covering sparse layer j's mass (j >= i)
    calibrated_coverage: float  # mean over sparse layers of their coverage by their leader
    uniform_coverage: float  # the same with uniform groups of group_size
    text_sha256: str
    tokens: int
    settings: dict

    def to_json(self) -> dict:
        return asdict(self)


def settings_key(cfg: AttentionConfig) -> dict:
    return {name: getattr(cfg, name) for name in _KEYED}


def stored(model_name: str, cfg: AttentionConfig, text_key: str = TEXT_VERSION) -> Calibration | None:
    """The calibration kept for this model, these settings and this text, or None."""
    path = calibration_file(model_name, cfg, text_key)
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    return Calibration(**{**data, "anchors": tuple(data["anchors"]), "sparse_layers": tuple(data["sparse_layers"])})


def text_ids(lm: LoadedModel) -> list[int]:
    """The text every calibration of lm runs on, so that runs, sweeps and the needle grid share one stored
    calibration per model and settings: samples/calibration, a licence that no measurement here is scored on (the
    needle grid plants its facts in the other licences and the sample workload, and the sample's probes ask about
    the workload)."""
    text = "\n\n".join(d.text.strip() for d in read_documents(sorted(CALIBRATION_TEXT.glob("*.txt"))))
    return lm.tokenizer(text, add_special_tokens=False)["input_ids"]


def for_run(lm: LoadedModel, cfg: AttentionConfig, anchors: str,
            workload_ids: list[int] | None = None) -> tuple[AttentionConfig, str]:
    """cfg with the anchor layers a run's `anchors` setting asks for (run_settings.ANCHORS), and what was used:
    "workload" (calibrated on workload_ids, the documents as the run's whole-document prompts lay them out: their
    first WORKLOAD_TOKENS), "calibrated" (on the model's calibration text), "uniform", or the next of these with why
    the one asked could not run (documents too short, too few sparse layers, or a window wider than the text allows).
    Anchor layers cfg already names are kept."""
    if cfg.anchor_layers is not None or anchors == "uniform":
        return cfg, "calibrated" if cfg.anchor_layers is not None else "uniform"
    plain, why = cfg.replace(mode="index_share"), ""
    if anchors == "workload":
        ids = list(workload_ids or [])[:WORKLOAD_TOKENS]
        try:
            found = stored(lm.name, cfg, _text_key(ids)) or calibrate(lm, plain, ids, text_key=_text_key(ids))
            return cfg.replace(anchor_layers=found.anchors), "workload"
        except EngineError as exc:
            why = f": the workload's documents could not calibrate ({exc})"
    try:
        return calibrated(lm, plain, text_ids(lm)).replace(mode=cfg.mode), "calibrated" + why
    except EngineError as exc:
        return cfg, f"uniform{why}: calibration could not run ({exc})"


def calibrated(lm: LoadedModel, cfg: AttentionConfig, text_ids: list[int]) -> AttentionConfig:
    """cfg with the anchor layers calibrated for lm on its calibration text: the stored ones, else calibrated now on
    text_ids and stored."""
    found = stored(lm.name, cfg) or calibrate(lm, cfg, text_ids)
    return cfg.replace(anchor_layers=found.anchors)


@torch.inference_mode()
def calibrate(lm: LoadedModel, cfg: AttentionConfig, text_ids: list[int], store: bool = True,
              text_key: str = TEXT_VERSION) -> Calibration:
    """Choose and (store=True) keep the anchor layers for lm under cfg's selection settings, on text_ids (text_key
    names the text in the stored file's key)."""
    plain = cfg.replace(mode="index_share", anchor_layers=None)
    plan = LayerPlan.build(plain, lm.n_layers, lm.native_window_layers())
    sparse = [i for i, role in enumerate(plan.roles) if role in ("index", "reuse")]
    if len(sparse) < 2:
        raise EngineError(f"{lm.name} has {len(sparse)} sparse layers under these settings: nothing to calibrate")
    if len(text_ids) < (TAIL_BLOCKS + cfg.window_blocks + cfg.sink_blocks + 1) * cfg.block_size:
        raise EngineError(f"calibration text of {len(text_ids)} tokens is too short for these settings")
    recorder = _Recorder(frozenset(sparse), lm.native_window_layers(), TAIL_BLOCKS * cfg.block_size)
    lm.model.base_model(input_ids=torch.tensor([text_ids], device=lm.device), sparse_attention=recorder)
    coverage = coverage_matrix(plain, [recorder.mass[i] for i in sparse], recorder.layout)
    n_groups = math.ceil(len(sparse) / cfg.group_size)
    starts = best_group_starts(coverage, n_groups)
    uniform = list(range(0, len(sparse), cfg.group_size))
    result = Calibration(
        model=lm.name,
        anchors=tuple(sparse[i] for i in starts),
        sparse_layers=tuple(sparse),
        coverage=[[round(c, 6) for c in row] for row in coverage],
        calibrated_coverage=_mean_coverage(coverage, starts),
        uniform_coverage=_mean_coverage(coverage, uniform),
        text_sha256=hashlib.sha256(json.dumps(text_ids).encode()).hexdigest(),
        tokens=len(text_ids),
        settings={**settings_key(cfg), "topk": cfg.topk, "indexer_oracle": "mass"},
    )
    if store:
        path = calibration_file(lm.name, cfg, text_key)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(path, result.to_json())
    return result


class _Recorder:
    """Stands in for SparseAttention in one dense forward: attends densely, and keeps each sparse layer's
    block mass for the last `tail` queries."""

    def __init__(self, layers: frozenset[int], native: frozenset[int], tail: int) -> None:
        self.layers, self.native, self.tail = layers, native, tail
        self.mass: dict[int, torch.Tensor] = {}
        self.layout: QueryLayout | None = None

    def attend(self, layer, q, k, v, scale, mask=None):
        if layer in self.layers:
            n = min(self.tail, q.shape[2])
            self.layout = QueryLayout(q_len=n, kv_len=k.shape[2], block_size=self.tail // TAIL_BLOCKS)
            self.mass[layer] = mass_scores(q[:, :, -n:], k, self.layout)  # [B, HKV, NQB, NKB]
        return dense_attention(q, k, v, scale, mask if layer in self.native else None)


def coverage_matrix(cfg: AttentionConfig, masses: list[torch.Tensor], layout: QueryLayout) -> list[list[float]]:
    """[i][j] for i <= j: share of layer j's mass on pickable blocks that layer i's top-k picks hold."""
    device = masses[0].device
    forced = forced_ids(cfg, layout, device, with_globals=True)
    pickable = torch.ones(forced.shape[0], layout.n_k_blocks + 1, dtype=torch.bool, device=device)
    pickable.scatter_(1, torch.where(forced < 0, layout.n_k_blocks, forced), False)
    pickable = pickable[:, :-1] & causal_blocks(layout, device)  # [NQB, NKB]
    on_pickable = [m * pickable for m in masses]
    picks = []
    for m in masses:
        ids = select_topk(cfg, m.clone(), layout, forced)  # [B, HKV, NQB, K], -1 = none
        chosen = torch.zeros(*ids.shape[:-1], layout.n_k_blocks + 1, device=device)
        chosen.scatter_(-1, torch.where(ids < 0, layout.n_k_blocks, ids), 1.0)
        picks.append(chosen[..., :-1])
    n = len(masses)
    return [
        [float((picks[i] * on_pickable[j]).sum() / on_pickable[j].sum()) if j >= i else 0.0 for j in range(n)]
        for i in range(n)
    ]


def best_group_starts(coverage: list[list[float]], n_groups: int) -> list[int]:
    """Starts of n_groups contiguous groups over len(coverage) layers, the first at 0, maximising the summed
    coverage of each layer by its group's first. Ties go to the earlier start, so the answer is deterministic."""
    n = len(coverage)
    n_groups = min(n_groups, n)
    # run[i][j]: coverage of layers i..j-1 by layer i
    run = [[0.0] * (n + 1) for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n + 1):
            run[i][j] = run[i][j - 1] + coverage[i][j - 1]
    best = [[-math.inf] * (n + 1) for _ in range(n_groups + 1)]  # best[g][j]: layers 0..j-1 in g groups
    back = [[0] * (n + 1) for _ in range(n_groups + 1)]
    best[0][0] = 0.0
    for g in range(1, n_groups + 1):
        for j in range(g, n + 1):
            for i in range(g - 1, j):
                value = best[g - 1][i] + run[i][j]
                if value > best[g][j]:
                    best[g][j], back[g][j] = value, i
    starts, j = [], n
    for g in range(n_groups, 0, -1):
        j = back[g][j]
        starts.append(j)
    return starts[::-1]


def _mean_coverage(coverage: list[list[float]], starts: list[int]) -> float:
    bounds = [*starts, len(coverage)]
    total = sum(coverage[s][j] for s, e in zip(bounds, bounds[1:]) for j in range(s, e))
    return total / len(coverage)


def _text_key(ids: list[int]) -> str:
    """A workload text's part of its calibration's key: its tokens' digest."""
    return "workload-" + hashlib.sha256(json.dumps(ids).encode()).hexdigest()[:16]


def _digest(key: dict, text_key: str) -> str:
    return hashlib.sha256(json.dumps({**key, "text": text_key}, sort_keys=True).encode()).hexdigest()[:12]


def calibration_file(model_name: str, cfg: AttentionConfig, text_key: str = TEXT_VERSION) -> Path:
    """Where lm's calibration under cfg's settings, on the text text_key names, is kept."""
    return calibration_path(model_name, _digest(settings_key(cfg), text_key))
