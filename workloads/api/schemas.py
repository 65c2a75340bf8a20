"""Request and response schemas. Inputs forbid unknown fields, so a misspelt setting is an error, not ignored.

Text is stripped; NUL characters (which PostgreSQL cannot store) are refused everywhere, and
single-line fields refuse every control character. Text is stored as given: `<script>` stays text,
and the HTML pages escape it.
"""

import datetime as dt
from decimal import Decimal
from typing import Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import (AfterValidator, BaseModel, ConfigDict, SecretStr, StringConstraints, WithJsonSchema,
                      create_model, field_validator, model_validator)

from engine.core.run_settings import DEFAULT_STRATEGIES, GROUP_SIZES, LIMITS, SETTINGS, STRATEGIES, Setting
from workloads import rules
from workloads.comparisons import target_models
from workloads.models import Alert, GroupSweep, Probe, Workload, endpoints

GROUP_SIZE_LIMITS = LIMITS["group_size"]


def _single_line(value: str) -> str:
    if not rules.is_one_line(value):  # the web forms refuse the same
        raise ValueError(rules.ONE_LINE)
    return value


def _no_invisible(value: str) -> str:
    if found := rules.invisible_character(value):  # the web form refuses the same
        raise ValueError(f"{rules.INVISIBLE} ({found})")
    return value


def _text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


def Line(max_length: int) -> Any:
    """A required one-line string: stripped, not empty, at most `max_length` characters."""
    return Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=max_length),
                     AfterValidator(_single_line)]


def Key(max_length: int) -> Any:
    """A one-line name the app looks things up by, or shows as the same as another: no invisible characters, or
    "H2\u200b00" would look like "H200" in the price book and never price an H200."""
    return Annotated[Line(max_length), AfterValidator(_no_invisible)]


def OptionalKey(max_length: int) -> Any:
    """A Key that may be empty: a choice that may be left out."""
    return Annotated[str, StringConstraints(strip_whitespace=True, max_length=max_length),
                     AfterValidator(_single_line), AfterValidator(_no_invisible)]


def Text(max_length: int, min_length: int = 0) -> Any:
    """Free text (newlines allowed): stripped, at most `max_length` characters."""
    return Annotated[str, StringConstraints(strip_whitespace=True, min_length=min_length, max_length=max_length),
                     AfterValidator(_text)]


# Dollars with up to 6 digits before the point and 4 after, as the price book's columns hold them. Its schema says
# exactly that (pydantic's own says any string, "" included, which the server refuses): a number, or a string of
# digits, so that "0.15" keeps its decimals exactly.
PRICE_PATTERN = r"^[0-9]{1,6}(\.[0-9]{1,4})?$"
Price = Annotated[Decimal, Field(ge=0, max_digits=10, decimal_places=4, allow_inf_nan=False), WithJsonSchema({
    "anyOf": [{"type": "number", "minimum": 0, "maximum": 999999.9999, "multipleOf": 0.0001},
              {"type": "string", "pattern": PRICE_PATTERN}]})]


class Input(Schema):
    model_config = ConfigDict(extra="forbid")


# --- workloads ------------------------------------------------------------------------------------

# Limits and rules come from workloads.rules, shared with the web's WorkloadForm (and ProbeForm below).
class WorkloadIn(Input):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"name": "Office leases", "kind": "contracts", "description": "the leases of our offices",
         "expected_volume": 40, "target_model": "SmolLM2-135M-Instruct", "api_provider": "ExampleAI",
         "api_model": "small-model-v2"}]})
    name: Key(rules.NAME_MAX) = Field(
        description="unique within your organisation, ignoring case, character width and runs of spaces; "
                    "no invisible characters",
        examples=["Supplier contracts"])
    # Literal, not the Kind enum: pydantic names an enum's component by its class name, and Probe.Kind is "Kind" too,
    # so the schema listed the probe kinds here.
    kind: Literal[tuple(Workload.Kind.values)] = Field(  # type: ignore[valid-type]
        Workload.Kind.OTHER.value, description="what the documents are; sets the unit of work")
    description: Text(rules.DESCRIPTION_MAX) = Field("", description="free text")
    expected_volume: int = Field(0, ge=0, le=rules.EXPECTED_VOLUME_MAX,
                                 description="units of work per month (contracts, tickets, thousand lines)")
    target_model: Line(200) = Field(description="a model this deployment offers (settings.COSTPLANNER_MODELS)",
                                    examples=["SmolLM2-135M-Instruct"])
    # Checked against the organisation's price book by the endpoint (pricing.api_choice_error), as the web form does.
    api_provider: OptionalKey(rules.API_PROVIDER_MAX) = Field(
        "", description="with api_model, the API model this workload would otherwise buy: a (provider, model) pair "
                        "of the price book's API entries (GET /api/prices/api); both empty: no API comparison",
        examples=["ExampleAI"])
    api_model: OptionalKey(rules.API_MODEL_MAX) = Field(
        "", description="the API model's name as the price book has it; independent of target_model, the local "
                        "model the comparisons run", examples=["small-model-v2"])

    @field_validator("target_model")
    @classmethod
    def _offered(cls, value: str) -> str:
        offered = target_models.model_names()
        if value not in offered:
            raise ValueError(f"unknown model {value!r}; choose from {', '.join(offered)}")
        return value


class DictOut(BaseModel):
    """An answer the endpoints build as a dict (a run's, workloads.api.run_endpoints.run_out): plain pydantic, which
    validates it in Rust. ninja's Schema reads every field through its Python resolver wrapper first; for a list of
    20 runs that was a millisecond of CPU, a seventh of the read (benchmarks/page_cpu.py)."""


class LatestRunOut(Schema):
    id: int
    status: str


class WorkloadOut(Schema):
    id: int
    name: str
    kind: str
    unit: str = Field(description="what one unit of work is, for cost per unit")
    description: str
    expected_volume: int
    target_model: str
    api_provider: str = Field(description="the provider of the API model it is compared against; empty: none")
    api_model: str = Field(description="the API model it is compared against (its API dollars); empty: none")
    created_at: dt.datetime
    documents: int = Field(description="number of documents")
    tokens: int = Field(description="tokens in all documents, under the target model")
    probes: int = Field(description="number of probes (questions with expected answers)")
    latest_run: LatestRunOut | None = Field(description="the most recent run, if any")


# --- documents and uploads ------------------------------------------------------------------------

class DocumentOut(Schema):
    id: int
    name: str
    source_path: str = Field(description="path inside the uploaded archive, if it came from one")
    tokens: int
    lines: int
    size_bytes: int
    created_at: dt.datetime


class UploadAcceptedOut(Schema):
    id: int = Field(description="the upload's id: follow it at GET /api/uploads/{id}")
    status: str


class UploadItemOut(Schema):
    name: str
    kept: bool = Field(description="whether it became a document")
    detail: str = Field(description="what extraction did with it, or why it was skipped")
    tokens: int
    document_id: int | None


class UploadOut(Schema):
    id: int
    workload_id: int
    status: Literal["queued", "running", "done", "failed", "cancelled"]
    files_done: int = Field(description="files extracted so far")
    files_total: int = Field(description="files in the upload")
    replace_same_names: bool = Field(description="whether its documents replace those of the same names")
    error: str
    created_at: dt.datetime
    finished_at: dt.datetime | None
    items: list[UploadItemOut] = Field(description="one per file or archive member, once extraction is done")


# --- probes ---------------------------------------------------------------------------------------

# No invisible characters in a probe: scoring reads one as a space, so "90\u200bdays" could never match "90days";
# in a question it is text the model reads that nobody sees.
class ProbeIn(Input):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"question": "What is the notice period?", "answer": "90 days", "kind": "user",
         "source": "master-services-agreement.txt, section 12"}]})
    question: Annotated[Text(rules.QUESTION_MAX, min_length=1), AfterValidator(_no_invisible)] = Field(
        description="a question about the documents; no invisible characters")
    answer: Annotated[Line(rules.ANSWER_MAX), AfterValidator(_no_invisible)] = Field(
        description="the short expected answer, on one line; no invisible characters")
    kind: Literal[tuple(Probe.Kind.values)] = Field(Probe.Kind.USER.value, description=(  # type: ignore[valid-type]
        "how the documents answer it: retrieval (a lookup in one passage), cross_reference or multi_hop (a join of "
        "two or more passages), count, absent (they do not say: the answer is a refusal such as \"not stated\"), "
        "user (not chosen)"))
    source: Text(1000) = Field("", description="where in the documents the answer is")

    @model_validator(mode="after")
    def _absent_answers_refuse(self):
        if not rules.answer_fits_kind(self.kind, self.answer):
            raise ValueError(rules.ABSENT_ANSWER)
        return self


class ProbeOut(Schema):
    id: int
    question: str
    answer: str
    kind: str
    source: str
    passage: str = Field(description="a generated probe's source passage, the sentences its answer was taken from")
    created_at: dt.datetime


# --- runs -----------------------------------------------------------------------------------------

def _setting_in(setting: Setting) -> tuple[Any, Any]:
    """An optional run setting's type and field, from engine.core.run_settings' table: its bounds or values, its
    default and its help, as the run service checks them."""
    used_by = f"used by {', '.join(setting.used_by)}" if set(setting.used_by) != set(STRATEGIES) else "used by all"
    if setting.choices:
        kind, bounds, extra = Literal[setting.choices], f"one of {', '.join(setting.choices)}", {}
    else:
        (low, high), kind = setting.limits, setting.kind
        bounds, extra = f"from {low} to {high}", {"ge": low, "le": high}
        extra |= {"allow_inf_nan": False} if kind is float else {}
    description = f"{setting.help}; {used_by}; {bounds}; default {setting.default}"
    return kind | None, Field(None, description=description, **extra)


Strategy = Literal[STRATEGIES]  # type: ignore[valid-type]


class _RunStart(Input):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {}, {"strategies": ["chunked", "full_index_share"], "chunk_tokens": 512, "chunk_overlap": 32, "topk": 256}]})
    strategies: list[Strategy] | None = Field(
        None, min_length=1, max_length=len(STRATEGIES),
        description=f"strategies to compare; by default {', '.join(DEFAULT_STRATEGIES)}")
    confirm_refusals: bool = Field(False, description="start even when every full-context strategy chosen would "
                                                      "refuse (the documents need more positions than the model "
                                                      "holds); without it, such a run is refused with a 400")
    confirm_duration: bool = Field(False, description="start even when the run is estimated to take more than an "
                                                      "hour; without it, such a run is refused with a 400 that says "
                                                      "how long")
    engine: bool = Field(True, description="read the documents with this worker's engine (one run)")
    endpoint_ids: list[int] = Field([], max_length=20, description=(
        "also read them through these endpoints (GET /api/endpoints), one run each, queued together and read side by "
        "side; an endpoint asks the strategies it can: whole documents as one request, cached or not"))


# The run settings, one field per row of engine.core.run_settings' table.
RunIn = create_model("RunIn", __base__=_RunStart, **{s.name: _setting_in(s) for s in SETTINGS})
RunSettingsOut = create_model("RunSettingsOut", __base__=DictOut, **{
    s.name: (s.kind, Field(description=s.help)) for s in SETTINGS})


# --- group-size sweeps ---------------------------------------------------------------------------

class SweepIn(Input):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"group_sizes": [1, 2, 4, 8]}]})
    group_sizes: list[Annotated[int, Field(ge=GROUP_SIZE_LIMITS[0], le=GROUP_SIZE_LIMITS[1])]] = Field(
        list(GROUP_SIZES), min_length=1, max_length=16,
        description="the group sizes to ask every probe at, in order: layers that share one indexer pass")


class SweepProgressOut(DictOut):
    done: int = Field(description="questions asked so far, over every group size")
    total: int = Field(description="questions it will ask (corrected once the worker knows the calibrated groups)")


class SweepOut(DictOut):
    id: int
    workload_id: int
    status: Literal[tuple(GroupSweep.Status.values)]  # type: ignore[valid-type]
    model: str
    group_sizes: list[int]
    settings: dict[str, Any] = Field(description="the other attention settings and the quality gate, the "
                                                 "workload's when it was queued")
    device: str
    progress: SweepProgressOut
    error: str
    created_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    recommendation: str | None = Field(description="its answer in one sentence, once it succeeded")


class SweepDetailOut(SweepOut):
    report: dict[str, Any] | None = Field(description="engine.evaluation.group_sweep's report: each arm's "
                                                      "accuracy, FLOPs and seconds; null until it succeeded")


class ProgressOut(DictOut):
    done: int
    total: int
    percent: int
    message: str


class RunOut(DictOut):
    id: int
    workload_id: int
    trigger: Literal["manual", "scheduled"]
    period: str = Field(description='the quarter or month it counts for, on the organisation\'s calendar: "2027-Q1"')
    status: Literal["queued", "running", "succeeded", "failed", "cancelled"]
    strategies: list[str]
    model: str
    settings: RunSettingsOut
    units_of_work: float = Field(description="units of work (documents, or thousand lines for a codebase) of the "
                                             "documents it read: counted when queued, and again when it starts")
    progress: ProgressOut
    error: str
    created_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    device: str
    api_provider: str = Field(description="the provider of the API model it is compared against: its workload's "
                                          "when it was queued (empty: none)")
    api_model: str = Field(description="the API model it is compared against and re-priced with, whatever its "
                                       "workload names now")
    pricing_error: str = Field(description="why the run could not be priced (its latest pricing); empty when priced")
    priced_at: dt.datetime | None
    endpoint_id: int | None = Field(description="the endpoint that read the documents; null: this worker's engine, or "
                                                "an endpoint deleted since")
    reader: str = Field(description='who read the documents, as queued: empty for the engine, else "name (model at '
                                    'URL)"')
    batch: str | None = Field(description="the runs queued with it, one per reader, share this")
    stopped: str = Field(description="why it ended before every question was asked (a spending cap reached); its "
                                     "results are the questions every strategy finished")


class GpuPriceIn(Input):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"device_class": "H200", "per_hour": "3.50", "effective_from": "2026-01-01",
         "source": "GPU cloud list price, January 2026"}]})
    device_class: Key(50) = Field(description='"cpu", "H200", "H100", "A100", "L4" ...; matched inside device names')
    per_hour: Price = Field(description="dollars per device hour, up to 4 decimals")
    effective_from: dt.date = Field(description="in force from this date until a later entry for the same class")
    source: Line(500) = Field(description="where this price comes from: a quote, an invoice, a web page")


class GpuPriceOut(Schema):
    id: int
    device_class: str
    per_hour: Decimal = Field(description="dollars per device hour")
    effective_from: dt.date
    source: str
    created_at: dt.datetime


class ApiPriceIn(Input):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"provider": "ExampleAI", "model": "small-model-v2", "input_per_mtok": "0.15", "cached_input_per_mtok": "0.075",
         "output_per_mtok": "0.60", "effective_from": "2026-01-01", "source": "ExampleAI's price page"}]})
    provider: Key(100)
    model: Key(200)
    input_per_mtok: Price = Field(description="dollars per million input tokens, up to 4 decimals")
    cached_input_per_mtok: Price | None = Field(
        None, description="dollars per million cached input tokens (a prompt-cache hit), up to 4 decimals; "
                          "null or left out: no cache discount known")
    output_per_mtok: Price = Field(description="dollars per million output tokens, up to 4 decimals")
    effective_from: dt.date = Field(description="in force from this date until a later entry for the same key")
    source: Line(500) = Field(description="where this price comes from: a quote, an invoice, a web page")


class ApiPriceOut(Schema):
    id: int
    provider: str
    model: str
    input_per_mtok: Decimal = Field(description="dollars per million input tokens")
    cached_input_per_mtok: Decimal | None = Field(description="dollars per million cached input tokens; "
                                                              "null: no cache discount known")
    output_per_mtok: Decimal = Field(description="dollars per million output tokens")
    effective_from: dt.date
    source: str
    created_at: dt.datetime


# --- endpoints ------------------------------------------------------------------------------------

def _base_url(value: str) -> str:
    if problem := endpoints.base_url_problem(value):  # the web form refuses the same
        raise ValueError(problem)
    return value


def _api_key(value: SecretStr) -> SecretStr:
    # The answer to bad input is the error's message alone (error_responses), and this one never quotes the key.
    if problem := endpoints.api_key_problem(value.get_secret_value()):
        raise ValueError(problem)
    return value


# A SecretStr, so that the key shows as "**********" wherever the payload is printed; its schema states the rules.
ApiKey = Annotated[SecretStr, AfterValidator(_api_key), WithJsonSchema({
    "type": "string", "format": "password", "writeOnly": True, "maxLength": endpoints.API_KEY_MAX,
    "pattern": "^[!-~]*$"})]


class EndpointIn(Input):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"name": "vLLM on the GPU box", "base_url": "http://gpu-box:8000/v1", "model": "Qwen/Qwen2.5-7B-Instruct"}]})
    name: Key(endpoints.NAME_MAX) = Field(description="unique within your organisation, whatever its case",
                                          examples=["Ollama"])
    base_url: Annotated[Line(endpoints.BASE_URL_MAX), AfterValidator(_base_url)] = Field(
        description="where its OpenAI-compatible API answers, up to the /v1: http or https, without a user name, "
                    "password, query or fragment", examples=["https://api.openai.com/v1", "http://localhost:11434/v1"])
    model: Key(endpoints.MODEL_MAX) = Field(description="the model's name as the endpoint serves it",
                                            examples=["llama3.1:8b"])
    api_key: ApiKey | None = Field(
        None, description="printable ASCII without spaces; empty, null or left out for a server that needs none "
                          "(Ollama, a local vLLM). Stored encrypted and never returned")
    price_id: int | None = Field(
        None, ge=1, le=2**63 - 1, description="the API price (GET /api/prices/api) its tokens are billed at; null or "
                                              "left out: not billed")


class EndpointOut(Schema):
    id: int
    name: str
    base_url: str
    model: str
    key_set: bool = Field(description="whether it has an API key; the key itself is never returned")
    price: ApiPriceOut | None = Field(description="the price book entry its tokens are billed at; null: not billed")
    created_at: dt.datetime


class PricesUsedOut(Schema):
    gpu: GpuPriceOut | None = Field(description="the GPU price in force on the run's date")
    api: ApiPriceOut | None = Field(description="the API price in force on the run's date")


class AnswerOut(Schema):
    probe_id: int | None
    question: str
    expected: str
    kind: str
    output: str
    correct: bool


class KindOut(Schema):
    correct: int
    n: int
    accuracy: float
    ci95: list[float]


class ResultOut(Schema):
    strategy: str
    mode: str
    refused: str = Field(description="why the engine would not run it; empty when it ran")
    tokens_in: int
    tokens_out: int
    calls: int
    seconds: float = Field(description="measured device seconds")
    wall_seconds: float
    peak_memory_bytes: int = Field(description=(
        "the most one call added to the memory in use when it began (the model's weights are not counted): the "
        "allocator's peak on a GPU; on a CPU the resident set sampled every 5 ms, near 0 when memory is reused"))
    flops_linear: float
    flops_attention: float
    flops_indexer: float
    flops_total: float
    bytes_total: float
    accuracy: float | None
    n_probes: int
    gated: bool = Field(description="more than the run's gate points below the best accuracy")
    top1_agreement: float | None
    index_overlap: float | None
    tokens_cached: int = Field(description="through an endpoint: of tokens_in, those it billed as cached")
    tokens_in_local: int | None = Field(description="through an endpoint: the same prompts by the local tokenizer")
    latency_median: float | None = Field(description="through an endpoint: seconds from request to reply, median")
    latency_p95: float | None = Field(description="through an endpoint: the 95th percentile of those seconds")
    attempts: int = Field(description="through an endpoint: the HTTP requests made, retries included")
    device_dollars: float | None = Field(description="at the run's GPU price or, through an endpoint, what it "
                                                     "billed; null until priced, never a silent 0")
    api_dollars: float | None = Field(description="at the run's API price; null until priced")
    unit_device_dollars: float | None = Field(description="device dollars per unit of work")
    unit_api_dollars: float | None = Field(description="API dollars per unit of work")
    by_kind: dict[str, KindOut] | None = Field(description=(
        "right answers per stored kind of question (retrieval, cross_reference, multi_hop, count, absent, user) with "
        "the Wilson 95% interval; null for runs measured before kinds were counted"))
    answers: list[AnswerOut] | None = Field(None, description="each probe's answer; only with ?answers=true")


class AlertOut(Schema):
    kind: Literal[tuple(Alert.Kind.values)]  # type: ignore[valid-type]
    strategy: str
    message: str = Field(description="one plain sentence with the figures and the periods")


class PricingDollarsOut(Schema):
    device_dollars: float | None
    api_dollars: float | None


class PricingOut(Schema):
    kind: Literal["original", "repricing", "carried_over"] = Field(description=(
        "original: priced when it finished; repricing: priced again later; carried_over: the pricing of a run priced "
        "before every pricing was kept"))
    label: str = Field(description='"Re-priced by alice on 4 Dec 2026 14:03"')
    created_at: dt.datetime
    created_by: str | None = Field(description="who asked for a re-pricing; null for the original")
    gpu_price_id: int | None
    api_price_id: int | None
    api_provider: str
    api_model: str
    error: str = Field(description="why it could not be priced; empty when it was")
    dollars: dict[str, PricingDollarsOut] = Field(description="per strategy that ran")


class RunDetailOut(RunOut):
    versions: dict[str, Any] = Field(description="versions of what produced the run")
    prices: PricesUsedOut = Field(description="the entries of its latest pricing, which results' dollars are")
    results: list[ResultOut]
    pricings: list[PricingOut] = Field(description="every pricing of the run, oldest first: re-pricing adds one and "
                                                   "never changes an earlier one")
    changes: dict[str, Any] = Field(description=(
        "what changed since the previous period's run, {} when there is none: previous_run, previous_period, unit "
        "and strategies (those that ran in both) -> cost and unit_cost {previous, current, delta, percent} in device "
        "dollars (null where unpriced; percent null from 0), accuracy {previous, current, delta_points}, "
        "gated {previous, current}"))
    alerts: list[AlertOut] = Field(description="what crossed the workload's alert thresholds since the previous "
                                               "period's run")
