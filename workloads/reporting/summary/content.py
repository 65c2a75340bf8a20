"""Everything the PDF summary shows, gathered as plain data: the template only lays it out.

A summary describes one run as it stands (its prices, its changes since the previous period),
with the workload's history up to that run, so a past run exported again reads as it did then.
The projection against context length is the planning page's (workloads.comparisons.planning), reused as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import decision as wording
from engine.core import run_settings
from engine.core.decision import Decision
from engine.core.run_settings import ANSWER_TOKENS
from workloads.comparisons.planning import project
from workloads.comparisons.batches import SideBySide, side_by_side
from workloads.documents import document_sets
from workloads.formatting import count_of, dollars
from workloads.models import ComparisonRun, StrategyResult
from engine.core.run_settings import STRATEGIES
from workloads.reporting import by_kind, rerun_spread
from workloads.reporting.by_kind import KindTable
from workloads.reporting.changes import strategy_name
from workloads.reporting.page_charts import COLOURS
from workloads.reporting.recommendation import inputs, monthly, recommendation
from workloads.reporting.summary import pdf_charts


class SummaryError(ValueError):
    """The run cannot be summarised (it did not succeed)."""


def _changed(figure: str, key: str) -> property:
    """A StrategyRow's `key` of `figure` in its change since the previous period: a float, or None when that
    period did not measure it."""
    return property(lambda row: ((row.change or {}).get(figure) or {}).get(key))


@dataclass(frozen=True)
class StrategyRow:
    strategy: str
    name: str
    result: StrategyResult
    change: dict | None  # this strategy's entry in run.changes, when the previous period measured it too

    previous_cost = _changed("cost", "previous")
    previous_unit_cost = _changed("unit_cost", "previous")
    previous_accuracy = _changed("accuracy", "previous")
    accuracy_points = _changed("accuracy", "delta_points")


@dataclass(frozen=True)
class GlanceRow:
    """One strategy on page one, in the recommendation's own words and figures (engine.core.decision)."""

    name: str
    cost: str  # per unit of work, with its measured range
    right: str  # "5 of 6 (44–97%)"
    standing: str  # against the quality gate, in plain words; "" inside it
    recommended: bool
    colour: str  # the strategy's colour in page one's chart, which has no legend of its own


@dataclass(frozen=True)
class PriceRow:
    kind: str
    entry: str  # what was charged, in words
    effective_from: object
    source: str


@dataclass(frozen=True)
class Method:
    heading: str
    text: str


@dataclass
class Content:
    run: ComparisonRun
    decision: Decision  # the one recommendation, as the run page states it
    monthly: str | None  # the decision in dollars a month at the expected volume, when priced
    unit: str
    strategies: list[StrategyRow]
    previous_run: ComparisonRun | None
    previous_period: str
    alerts: list[str]
    history: list[ComparisonRun]  # succeeded runs up to this one, oldest first
    history_results: list[StrategyResult]
    prices: list[PriceRow]
    pricing_error: str
    provenance: list[tuple[str, object]]  # model, device and library versions
    settings: list[tuple[str, object]]
    methods: list[Method]
    projection: object  # workloads.comparisons.planning.Projection
    charts: list = field(default_factory=list)  # the appendix's pdf_charts.Chart, added by gather()
    decision_chart: object = None  # page one's chart, added by gather()
    glance: list[GlanceRow] = field(default_factory=list)  # page one's table, added by gather()
    readers: SideBySide | None = None  # the runs queued with it, one per reader, side by side
    kinds: KindTable | None = None  # each strategy's right answers per kind of question, added by gather()

    @property
    def workload(self):
        return self.run.workload

    @property
    def documents_change(self) -> str | None:
        """What changed in the documents since the previous period's run: "documents: 1 added (annex.txt)..."."""
        return self.previous_run and document_sets.run_change(self.previous_run, self.run)

    @property
    def details(self) -> list[tuple]:
        """Provenance beside the engine settings, one (name, value, name, value) row at a time."""
        blank = ("", "")
        rows = max(len(self.provenance), len(self.settings))
        left = self.provenance + [blank] * (rows - len(self.provenance))
        right = self.settings + [blank] * (rows - len(self.settings))
        return [(*a, *b) for a, b in zip(left, right, strict=True)]

    @property
    def period_word(self) -> str:
        """"quarter" or "month", as the run's own period label is one ("2027-Q1", "2027-01"): the changes' heading
        must name the period the cover does, even after the workload's schedule changed."""
        return "quarter" if "-Q" in self.run.period else "month"

    @property
    def ran(self) -> list[StrategyRow]:
        return [row for row in self.strategies if not row.result.refused]

    @property
    def refused(self) -> list[StrategyRow]:
        return [row for row in self.strategies if row.result.refused]

    @property
    def from_nothing(self) -> bool:
        """Whether a strategy's device time was priced at $0 in the previous period (its change reads "from $0")."""
        return any(row.previous_cost == 0 or row.previous_unit_cost == 0 for row in self.ran)


def gather(run: ComparisonRun) -> Content:
    run = (ComparisonRun.objects.select_related("workload__organisation", "gpu_price", "api_price", "previous_run")
           .get(pk=run.pk))
    if run.status != ComparisonRun.Status.SUCCEEDED:
        raise SummaryError(f"run {run.pk} is {run.status}: only a succeeded run can be summarised")
    changes = (run.changes or {}).get("strategies", {})
    order = {name: i for i, name in enumerate(STRATEGIES)}
    results = sorted(run.results.select_related("run"), key=lambda r: order.get(r.strategy, len(order)))
    history_results = list(
        StrategyResult.objects.filter(run__workload=run.workload, run__status=ComparisonRun.Status.SUCCEEDED,
                                      run__reader=run.reader, run__created_at__lte=run.created_at)
        .select_related("run").order_by("run__created_at", "run__pk", "pk"))
    content = Content(
        run=run, decision=recommendation(run), monthly=monthly(run), unit=run.workload.unit,
        strategies=[StrategyRow(r.strategy, strategy_name(r.strategy), r, changes.get(r.strategy)) for r in results],
        previous_run=run.previous_run, previous_period=run.previous_run.period if run.previous_run else "",
        alerts=[alert.message for alert in run.alerts.all()],
        history=list(dict.fromkeys(r.run for r in history_results)), history_results=history_results,
        prices=_prices(run), pricing_error=run.pricing_error,
        provenance=[("Model", run.model), ("Device", run.device or "not recorded"),
                    ("Documents", document_sets.described(run.documents)),
                    *sorted((str(k), str(v)) for k, v in (run.versions or {}).items())],
        # An endpoint's run measures no FLOPs to project: its PDF projects from the engine's latest run.
        settings=_settings(run), methods=_methods(run),
        projection=project(run.workload, as_of=None if run.reader else run), readers=side_by_side(run),
    )
    content.kinds = by_kind.table(results, run.gate_points, content.decision.recommended)
    content.charts = pdf_charts.all_charts(content)
    content.decision_chart = pdf_charts.decision(content)
    content.glance = _glance(run, content.decision)
    return content


def _glance(run: ComparisonRun, chosen: Decision) -> list[GlanceRow]:
    """Page one's table: every strategy, the recommended first, then the measured by cost, the refused last. The
    API's bill is in the monthly line above it and in the appendix's cost table."""
    options, view = inputs(run)
    options.sort(key=lambda o: (o.strategy != chosen.recommended, not o.ran, o.cost or 0))
    return [GlanceRow(
        name=strategy_name(o.strategy),
        cost=wording.money_with_range(o, view) if o.cost is not None else "—",
        right=f"{o.correct} of {o.n_probes} ({wording.accuracy_range(o)})" if o.ran else "—",
        standing=wording.standing(o), recommended=o.strategy == chosen.recommended,
        colour=COLOURS.get(o.strategy, "#444444")) for o in options]


def _prices(run: ComparisonRun) -> list[PriceRow]:
    rows = []
    if run.gpu_price:
        gpu = run.gpu_price
        rows.append(PriceRow("Device", f"{gpu.device_class} at {dollars(gpu.per_hour)} an hour",
                             gpu.effective_from, gpu.source))
    if run.api_price:
        api = run.api_price
        rows.append(PriceRow("API", f"{api.provider} {api.model}: {dollars(api.input_per_mtok)} in and "
                                    f"{dollars(api.output_per_mtok)} out per million tokens",
                             api.effective_from, api.source))
    return rows


def _attention(run: ComparisonRun) -> dict:
    """The engine's attention settings as the run used them (the report has them all, the run's columns most)."""
    reported = ((run.report or {}).get("settings") or {}).get("attention") or {}
    return {name: value if hasattr(run, name) else reported.get(name, value)
            for name, value in vars(run.attention_config()).items()}


def _settings(run: ComparisonRun) -> list[tuple[str, object]]:
    a = _attention(run)
    return [
        ("Strategies", ", ".join(map(strategy_name, run.strategies))), ("Chunk size", f"{run.chunk_tokens} tokens"),
        ("Chunk overlap", f"{run.chunk_overlap} tokens"), ("Local window", f"{a['window']} tokens"),
        ("Top-k budget", f"{a['topk']} tokens"), ("Global blocks", a["global_blocks"]),
        ("Block size", f"{a['block_size']} tokens"), ("Sink blocks", a["sink_blocks"]),
        ("Index Share group size", f"{a['group_size']} layers"), ("Dense first layers", a["dense_layers"]),
        ("Indexer", run_settings.shown("indexer", a["indexer"])), ("Index Share's groups", _groups(run)),
        ("Quality gate", f"{run.gate_points:g} points"),
        ("Units of work", f"{run.units_of_work:g} × {run.workload.unit}"),
    ]


def _groups(run: ComparisonRun) -> str:
    """Where the run's Index Share groups started: as asked, and, from its report, the layers calibration chose
    (or why it could not run)."""
    settings = (run.report or {}).get("settings") or {}
    layers = (settings.get("attention") or {}).get("anchor_layers")
    used = settings.get("anchors", run.anchors)
    on = "on the workload's documents" if used == "workload" else "for the model"
    if layers:
        return f"calibrated {on}: the indexer runs in layers {', '.join(map(str, layers))}"
    return f"calibrated {on}" if used in ("calibrated", "workload") else used


def _methods(run: ComparisonRun) -> list[Method]:
    a, unit = _attention(run), run.workload.unit
    n_probes = max((r.n_probes for r in run.results.all()), default=0)
    indexers = {
        "exact": "the exact indexer scores every earlier token with the layer's own queries and keys, "
                 "as a DeepSeek-style lightning indexer does, and rates a block by its best token",
        "pooled": "the pooled indexer scores each key block by the dot product of mean-pooled queries and keys, "
                  "the cheap end of the comparison",
        "mass": "the mass indexer rates each block by the attention mass dense attention would put on it, "
                "every query of the block and head of the group scored",
        "pooled_mass": "the pooled-mass indexer rates each block by the attention mass each head would put on it, "
                       "from the block's mean query (the last block, whose last query writes the answer, "
                       "query by query)",
    }
    sparse = (f"each block of {a['block_size']} queries attends, with one softmax, to {a['sink_blocks']} sink "
              f"block(s) at the start, a local window of the last {a['window']} tokens, {a['global_blocks']} "
              f"global blocks spread evenly over the rest, and the top-k {a['topk']} tokens' worth of blocks that "
              f"an indexer rates best")
    return [
        Method("The baseline: chunking",
               f"Each document is split into chunks of at most {run.chunk_tokens} tokens along paragraph breaks "
               f"(top-level definitions in code), each chunk repeating the last {run.chunk_overlap} tokens of the "
               "one before. For each question the model reads every chunk with the question (one call per chunk, "
               "dense attention: chunks are short), then one more call picks the answer from the chunks' answers."),
        Method("Full context, dense",
               "One call per question over all the workload's documents and the question, every token attending "
               "to every earlier token: the reference the sparse strategies are measured against."),
        Method("Full context, naive sparse",
               f"One call per question over all documents; after the first {a['dense_layers']} dense layers, "
               f"{sparse}. The indexer runs in every layer."),
        Method("Full context, sliding window",
               f"One call per question over all documents; after the first {a['dense_layers']} dense layers, each "
               f"query block sees only the sink block(s) and the last {a['window']} tokens."),
        Method("Full context with Index Share",
               f"As naive sparse, but the indexer runs once per group of layers, in the group's first layer, and "
               f"the other layers reuse its selection; each layer still computes its own attention. There are as "
               f"many groups as groups of {a['group_size']} layers make; where each starts: {_groups(run)} "
               "(calibrated: the layer whose selection best covers what the layers after it attend to, in one "
               "dense reading of the workload's documents or of the model's calibration text; uniform: every "
               "group's first layer). "
               f"Here {indexers.get(a['indexer'], 'the ' + str(a['indexer']) + ' indexer')}."),
        Method("Cost",
               f"Every strategy answers every question with the same model, {run.model}, one call at a time, the "
               f"strategies taking turns question by question so that the machine's load falls on all alike, with "
               f"up to {ANSWER_TOKENS} answer tokens. Device seconds are measured on the device "
               f"({run.device or 'not recorded'}): CUDA events on a GPU; on a CPU the time the process computed "
               "(its CPU time over its threads), which the machine's other work does not inflate. FLOPs come from the engine's cost ledger, computed from the "
               "model's shape for each call (one multiply-add is 2 FLOPs), split into linear, attention and "
               "indexer. Dollars = device seconds ÷ 3,600 × the GPU's price per hour in force on the run's date. "
               "API dollars = tokens in × the input price + tokens out × the output price, per million tokens. "
               f"Unit cost = dollars ÷ the run's units of work: {count_of(run.units_of_work, unit)}."),
        Method("Accuracy and the quality gate",
               f"Accuracy is the share of the workload's own {n_probes} probe question(s) a strategy answers "
               "correctly: the expected answer must appear in the model's answer as whole words, after "
               "normalising case and punctuation. A strategy is quality-gated when its accuracy is more than "
               f"{run.gate_points:g} points below the best strategy's in the same run: its savings do not count, "
               "as MLPerf counts a result only at the reference accuracy."),
        Method("Changes since the previous period",
               "A run is compared with the latest succeeded run of the same workload in an earlier period "
               "(quarter or month), never with another run of its own period; alerts fire when a change passes "
               f"the workload's thresholds ({run.workload.alert_cost_percent:g}% cost, "
               f"{run.workload.alert_accuracy_points:g} accuracy points). A cost change counts only when it is "
               "larger than reruns of the same work on the same device move that strategy's cost: the spread of "
               "the workload's own last runs once it has three, and until then the product's measured figure "
               f"({rerun_spread.MEASURED_PERCENT:g}%, the sample rerun under different loads)."),
        Method("Projection against context length",
               "The planning page's projection: ledger FLOPs per question at each context length, converted to "
               "device dollars with the device seconds per FLOP measured in this run and the GPU price in force on "
               "its date; API dollars are tokens at the API price in force on that date."),
    ]
