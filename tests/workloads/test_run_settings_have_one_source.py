"""The web's model fields, its form, the API schema and the engine's CLI all take a run's defaults and limits from
engine.core.run_settings, so none can drift from the others (they once documented the engine's defaults while using
other ones)."""

from engine import cli
from engine.core import run_settings
from workloads.api import schemas
from workloads.forms import RunForm
from workloads.models import ComparisonRun


def test_the_models_fields_default_to_the_run_settings():
    assert {name: ComparisonRun._meta.get_field(name).default for name in run_settings.DEFAULTS} == \
        run_settings.DEFAULTS


def test_the_form_starts_at_the_defaults_within_the_limits():
    form = RunForm()
    for name, value in run_settings.DEFAULTS.items():
        assert form.fields[name].initial == value, name
    for name, (low, high) in run_settings.LIMITS.items():
        assert (form.fields[name].min_value, form.fields[name].max_value) == (low, high), name
    assert form.fields["strategies"].initial == list(run_settings.DEFAULT_STRATEGIES)


def test_the_api_schema_documents_the_defaults_and_limits_it_enforces():
    properties = schemas.RunIn.model_json_schema()["properties"]
    for name, (low, high) in run_settings.LIMITS.items():
        bounds = properties[name]["anyOf"][0]
        assert (bounds["minimum"], bounds["maximum"]) == (low, high), name
        assert properties[name]["description"].endswith(f"default {run_settings.DEFAULTS[name]}"), name
    assert properties["indexer"]["description"].endswith(f"default {run_settings.DEFAULTS['indexer']}")


def test_the_cli_compare_starts_at_the_same_defaults():
    args = cli.build_parser().parse_args(["compare", "--docs", "a.txt", "--probes", "p.jsonl"])
    assert args.strategies == ",".join(run_settings.DEFAULT_STRATEGIES)
    assert (args.chunk_tokens, args.chunk_overlap) == (run_settings.DEFAULTS["chunk_tokens"],
                                                       run_settings.DEFAULTS["chunk_overlap"])
    attention = cli.attention_config(args, "index_share", run_settings.attention({}))
    assert attention == run_settings.attention({})
