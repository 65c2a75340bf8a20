"""What each layer of a model does under an attention mode.

Roles:
  dense   full causal attention (dense mode, and the first `dense_layers` layers)
  native  the model's own local attention (Gemma3's sliding layers), left as the model defines it
  window  sinks and window only (sliding_window mode)
  index   runs the indexer and selects blocks (every sparse layer in naive_sparse;
          the first layer of each group in index_share, or the config's calibrated anchor layers)
  reuse   attends over the selection its group's `index` layer made in this forward pass
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.attention_config import AttentionConfig
from engine.core.errors import EngineError


@dataclass(frozen=True)
class LayerPlan:
    roles: tuple[str, ...]
    leaders: tuple[int | None, ...]  # for each layer, the layer whose selection it attends over

    @classmethod
    def build(cls, cfg: AttentionConfig, n_layers: int, native_layers: frozenset[int] = frozenset()) -> "LayerPlan":
        roles: list[str] = []
        leaders: list[int | None] = []
        sparse_seen = 0
        leader = None
        for layer in range(n_layers):
            if layer in native_layers:
                role = "native"
            elif cfg.mode == "dense" or layer < cfg.dense_layers:
                role = "dense"
            elif cfg.mode == "sliding_window":
                role = "window"
            elif cfg.mode == "naive_sparse":
                role = "index"
            elif cfg.anchor_layers is not None:
                role = "index" if layer in cfg.anchor_layers else "reuse"
                if role == "reuse" and leader is None:
                    first = cfg.anchor_layers[0]
                    raise EngineError(f"sparse layer {layer} comes before the first anchor layer {first}")
            elif sparse_seen % cfg.group_size == 0:
                role = "index"
            else:
                role = "reuse"
            if role in ("index", "reuse"):
                # Groups are counted over sparse layers only, so a model's native
                # local layers do not break up a group.
                sparse_seen += 1
                leader = layer if role == "index" else leader
            roles.append(role)
            leaders.append(leader if role in ("index", "reuse") else None)
        if cfg.mode == "index_share" and cfg.anchor_layers is not None:
            strays = [a for a in cfg.anchor_layers if a >= n_layers or roles[a] != "index"]
            if strays:
                raise EngineError(f"anchor layers {strays} are not sparse layers of this {n_layers}-layer model")
        return cls(tuple(roles), tuple(leaders))

    @property
    def indexer_layers(self) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.roles) if r == "index")

    def count(self, role: str) -> int:
        return self.roles.count(role)
