"""A comparison's run settings, in one place: the strategies, their names for people, the defaults, the limits
and their checks. Plain Python (no torch): the web's model fields, forms, API schema, the CLI and the engine's
comparison all read them from here.

  full_<mode>  every document and the question in one call, with the engine's attention in that mode.
  full_<mode>_cached  the same calls, continuing from the documents' keys and values, prefilled once per run.
  chunked      map-reduce: every chunk is asked, then one more call reduces the chunks' answers.
  retrieval    BM25 over the same chunks; one call with the best of them and the question.
  routed       Self-Route (Li et al., EMNLP 2024): the retrieval call, and where the model's route escalates its
               answer (a NONE, or one the chunks found do not hold: engine.strategies.routing), the
               full_index_share call over every document.

Why these defaults. The smaller model (SmolLM2-135M) holds 8,192 positions and a business's sample is a few
thousand tokens, so the sparse budget must be well below that to be a sparse regime at all: window 256, top-k
256, 2 strided global blocks and a sink block of 64 make a 704-token budget (the engine's kernel-sized defaults,
window 1,024 and top-k 2,048, would cover a 2K-token workload whole, and sparse would be dense). A prompt's question
and its answer select at the engine's answer top-k, 2,048 (AttentionConfig.answer_topk): a few blocks' work, which
kept an early fact among look-alikes that the documents' 256 lost (docs/engine.md). The documents' budget stays
fixed as they grow, by measurement: a quarter of the context kept five look-alike facts at 8K but none of four at
14K, and costs the prefill speed Index Share exists for (benchmarks/README.md, a quarter of the context at 14K);
what Index Share loses on a workload, its quality gate says. The pooled_mass
indexer ranks blocks by the attention mass each head would put on them (engine/attention/indexers.py) at 1/64 of
the exact indexer's cost, and it keeps the needle grid's facts where the raw-maximum indexers lose them (docs/
engine.md, the needle grid); `exact` (DeepSeek's lightning-indexer regime, as costly as attention's own scores)
and `pooled` stay to compare with. Groups of 4 layers are the article's; where each group starts is calibrated
per model (engine/evaluation/calibration.py, on held-out text): on the sample's 43 probes at this budget, the default
model answered 22 with uniform groups and 28 to 31 with anchors calibrated on any of four texts, against dense's 30
(benchmarks/README.md, the sample's quality gate). Chunks of 512
tokens with 64 repeated keep a chunk call short for a small model and a fact cut at a boundary whole in one chunk.
Retrieval gives a question as many of its best chunks as fit 1,536 tokens (three default chunks): the call stays
under a fifth of the default model's 8,192 positions, and a second and third chunk are there when the best-scored
one is a near-miss (a chunk that shares the question's words but not its answer).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.attention_config import LIMITS as ATTENTION_LIMITS
from engine.core.attention_config import INDEXERS, AttentionConfig
from engine.core.errors import EngineError

FULL_MODES = {
    "full_index_share": "index_share",
    "full_naive_sparse": "naive_sparse",
    "full_dense": "dense",
    "full_sliding_window": "sliding_window",
}
# The documents' KV cache computed once per run, each question continuing from it (engine.strategies.prefix).
CACHED_MODES = {f"{strategy}_cached": mode for strategy, mode in FULL_MODES.items()}
STRATEGIES = (*FULL_MODES, *CACHED_MODES, "chunked", "retrieval", "routed")
# What businesses choose between (Li et al., EMNLP 2024): search the chunks, Self-Route, whole documents with and
# without the cached prefix; with map-reduce, and naive sparse and dense attention as Index Share's baselines.
DEFAULT_STRATEGIES = ("retrieval", "routed", "chunked", "full_index_share", "full_index_share_cached",
                      "full_naive_sparse", "full_dense")
# Through an OpenAI-compatible endpoint (engine.strategies.endpoint_compare) the whole documents are one request, read
# with the endpoint's own attention: a run's whole-documents strategies become that request (full_dense), its cached
# ones the same request relying on the provider's prompt cache (full_dense_cached).
ENDPOINT_STRATEGIES = ("retrieval", "routed", "chunked", "full_dense", "full_dense_cached")
# Identifiers stay in the API and JSON; pages, mails and the PDF show these.
NAMES = {
    "full_index_share": "Whole documents (Index Share)",
    "full_naive_sparse": "Whole documents (naive sparse)",
    "full_dense": "Whole documents (dense)",
    "full_sliding_window": "Whole documents (sliding window)",
    "full_index_share_cached": "Whole documents, cached (Index Share)",
    "full_naive_sparse_cached": "Whole documents, cached (naive sparse)",
    "full_dense_cached": "Whole documents, cached (dense)",
    "full_sliding_window_cached": "Whole documents, cached (sliding window)",
    "chunked": "Ask every chunk",
    "retrieval": "Search the chunks",
    "routed": "Search, then whole documents if needed",
}
# The most tokens any answer may take: probes have short answers (a number, a name, a file name).
ANSWER_TOKENS = 24

# Pages, the PDF and forms show these; the identifiers stay in the API, the JSON and the CLI.
INDEXER_NAMES = {"pooled_mass": "pooled attention mass", "mass": "attention mass", "exact": "exact scores",
                 "pooled": "pooled scores"}
# Where Index Share's groups start: at anchor layers calibrated on the workload's documents or on the model's
# calibration text (engine.evaluation.calibration), or every group_size-th sparse layer. The workload's own documents
# are the default: on the sample's 43 probes they put Index Share inside the 5-point gate (31 right against naive
# sparse's 33), where the model's calibration text gave 27 and uniform groups 22 (benchmarks/README.md, the sample's
# gate).
ANCHORS = ("workload", "calibrated", "uniform")
# The group sizes a group-size sweep asks (engine.evaluation.group_sweep): 1 is an indexer in every layer (naive
# sparse), 4 the article's.
GROUP_SIZES = (1, 2, 4, 8)

# Which strategies a setting changes: the whole-documents ones by their attention mode (routed escalates to
# full_index_share), the chunk and search ones by name.
_MODES = {**FULL_MODES, **CACHED_MODES, "routed": "index_share"}
WINDOWED = tuple(s for s, mode in _MODES.items() if mode != "dense")
SELECTING = tuple(s for s, mode in _MODES.items() if mode in ("naive_sparse", "index_share"))
INDEX_SHARE = tuple(s for s, mode in _MODES.items() if mode == "index_share")
CHUNKS = ("chunked", "retrieval", "routed")
SEARCH = ("retrieval", "routed")


@dataclass(frozen=True)
class Setting:
    """One run setting, the one place it is described: the web's model column, its form field, the API's schema and
    the CLI's flag are all made from it (workloads.models.run_setting_columns, workloads.forms.RunForm,
    workloads.api.schemas.RunIn, engine.cli), so that a new setting is a row here and a migration."""

    name: str
    default: int | float | str
    label: str  # as pages and the PDF name it
    help: str  # one line: the form's help, the API's description, the CLI's --help, the column's help_text
    used_by: tuple[str, ...]  # the strategies whose answers or costs it changes
    limits: tuple[int | float, int | float] | None = None  # a number's bounds, checked everywhere
    choices: tuple[str, ...] = ()  # a text setting's values, the default first
    attention: bool = False  # an AttentionConfig field (engine.core.attention_config); the rest are ComparisonWork's
    # Forms and scripts from before it existed may leave it out: the run then takes the default.
    optional: bool = False

    @property
    def kind(self) -> type:
        return type(self.default)


# A run's settings: the attention's that a user tunes, then the comparison's own.
SETTINGS = (
    Setting("group_size", 4, "group size", "layers that share one indexer pass", INDEX_SHARE, attention=True,
            limits=ATTENTION_LIMITS["group_size"]),
    # A run's blocks are 64 tokens, and the window covers one at least.
    Setting("window", 256, "local window", "local attention window, tokens", WINDOWED, attention=True,
            limits=(64, ATTENTION_LIMITS["window"][1])),
    Setting("topk", 256, "top-k budget", "tokens of the blocks the indexer picks", SELECTING, attention=True,
            limits=ATTENTION_LIMITS["topk"]),
    Setting("global_blocks", 2, "global blocks", "strided global blocks every query attends", SELECTING,
            attention=True, limits=ATTENTION_LIMITS["global_blocks"]),
    Setting("indexer", "pooled_mass", "indexer", "how the indexer scores blocks", SELECTING, attention=True,
            choices=INDEXERS),
    Setting("anchors", "workload", "where Index Share's groups start",
            "where Index Share's groups start: at the layers calibrated on the workload's documents (workload) or on "
            "the model's calibration text (calibrated), or every group-size-th sparse layer (uniform)",
            INDEX_SHARE, choices=ANCHORS, optional=True),
    Setting("chunk_tokens", 512, "chunk size", "tokens per chunk, for asking or searching the chunks", CHUNKS,
            limits=(16, 1 << 20)),
    Setting("chunk_overlap", 64, "chunk overlap", "tokens shared by neighbouring chunks, fewer than a chunk's",
            CHUNKS, limits=(0, 1 << 19)),
    Setting("gate_points", 5.0, "quality gate, points",
            "a strategy more than this many accuracy points below the best is gated", STRATEGIES, limits=(0, 100)),
    # 0 means "fill retrieval_tokens"; the engine refuses a retrieval call that would not fit the model.
    Setting("retrieval_chunks", 0, "chunks a search gives",
            "chunks a search question gets (0: as many as fit the search tokens)", SEARCH, limits=(0, 1 << 16),
            optional=True),
    Setting("retrieval_tokens", 1536, "tokens a search gives", "tokens of chunks a search question gets at most",
            SEARCH, limits=(16, 1 << 20), optional=True),
)
DEFAULTS = {s.name: s.default for s in SETTINGS}
LIMITS = {s.name: s.limits for s in SETTINGS if s.limits}
LABELS = {s.name: s.label for s in SETTINGS}
# The prices `engine compare` runs at when none are given: the app prices a run from the organisation's price book.
CLI_PRICES = {"per_device_hour": 2.0, "api_input_per_mtok": 0.15, "api_output_per_mtok": 0.60}
MIN_CHUNK_ROOM = 256  # positions a chunk call leaves for the system message, the question and the answer


def name(strategy: str) -> str:
    """The strategy's name for people ("Chunked"); an unknown identifier as it is."""
    return NAMES.get(strategy, strategy)


def shown(setting: str, value) -> str:
    """A run setting's value as people read it: the indexer by its name, the rest as they are."""
    return INDEXER_NAMES.get(value, value) if setting == "indexer" else str(value)


def full_mode(strategy: str) -> str | None:
    """The attention mode of a full-context strategy, cached or not; None for any other strategy."""
    return FULL_MODES.get(strategy) or CACHED_MODES.get(strategy)


def uses_index_share(strategy: str) -> bool:
    """Whether the strategy attends with Index Share: its whole-documents forms, and routed's escalations."""
    return full_mode(strategy) == "index_share" or strategy == "routed"


def check_strategies(names) -> list[str]:
    """The strategies, each once, in order; an empty or unknown one is refused."""
    unknown = [n for n in names if n not in STRATEGIES]
    if unknown or not names:
        raise EngineError(f"unknown strategy {', '.join(map(repr, unknown)) or '(none given)'}; "
                          f"choose from {', '.join(STRATEGIES)}")
    return list(dict.fromkeys(names))


def through_endpoint(strategies) -> list[str]:
    """The strategies an endpoint asks for the ones chosen (ENDPOINT_STRATEGIES), each once, in order."""
    return list(dict.fromkeys("full_dense_cached" if s in CACHED_MODES else "full_dense" if s in FULL_MODES else s
                              for s in strategies))


def check_values(values: dict) -> dict:
    """The run's settings, unset ones at their defaults, each within its limits; the chunk overlap below the chunk."""
    unknown = sorted(set(values) - set(DEFAULTS))
    if unknown:
        raise EngineError(f"unknown run setting {', '.join(unknown)}; the settings are {', '.join(DEFAULTS)}")
    settled = {**DEFAULTS, **{k: v for k, v in values.items() if v is not None}}
    for key, (low, high) in LIMITS.items():
        value = settled[key]
        if not (isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high):
            raise EngineError(f"{key.replace('_', ' ')} must be a number from {low} to {high}; got {value!r}")
    for setting in SETTINGS:
        if setting.choices and settled[setting.name] not in setting.choices:
            raise EngineError(f"{setting.name} must be one of {', '.join(setting.choices)}; "
                              f"got {settled[setting.name]!r}")
    if settled["chunk_overlap"] >= settled["chunk_tokens"]:
        raise EngineError(f"chunk overlap ({settled['chunk_overlap']} tokens) must be smaller than the chunk size "
                          f"({settled['chunk_tokens']} tokens)")
    return settled


def check_chunk_tokens(chunk_tokens: int, max_positions: int) -> None:
    # The chunk, the question and the answer share the model's positions.
    room = max_positions - MIN_CHUNK_ROOM
    if not LIMITS["chunk_tokens"][0] <= chunk_tokens <= room:
        raise EngineError(
            f"chunk size must be between {LIMITS['chunk_tokens'][0]} and {room} tokens: the model has "
            f"{max_positions} positions, and the question and answer need room; got {chunk_tokens}"
        )


def attention(values: dict, mode: str = "index_share") -> AttentionConfig:
    """The engine's attention settings for a run's settings (unset ones at their defaults)."""
    settled = {**DEFAULTS, **{k: v for k, v in values.items() if v is not None}}
    return AttentionConfig(mode=mode, **{s.name: settled[s.name] for s in SETTINGS if s.attention})
