"""A run setting is one row of engine.core.run_settings' table (issue 37): the model's column, the run form's field,
the API's schema and the CLI's flag are made from it. A copy of the code gets one new row, and nothing else: its
makemigrations writes the one column, and the form, the API and the CLI take the new setting with its bounds. And
every row reaches the engine, as an AttentionConfig field or a ComparisonWork field of its name."""

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from engine.core import run_settings
from engine.core.attention_config import AttentionConfig
from engine.strategies.work import ComparisonWork

ROOT = Path(__file__).resolve().parents[2]
ROW = ('    Setting("rerank_chunks", 8, "chunks re-ranked", "chunks a search re-ranks before it answers", SEARCH,\n'
       '            limits=(1, 64)),\n')
# Run in the copy: what each part of the app makes of the new row.
READ_BACK = """
import json, django
django.setup()
from django.core.management import call_command
from engine import cli
from workloads.api.schemas import RunIn
from workloads.forms import RunForm
from workloads.models import ComparisonRun
call_command("makemigrations", "workloads", "--dry-run", "-v", "3", stdout=open("migration.txt", "w"))
field, schema = RunForm().fields["rerank_chunks"], RunIn.model_json_schema()["properties"]["rerank_chunks"]
args = cli.build_parser().parse_args(["compare", "--docs", "a.txt", "--probes", "p.jsonl", "--rerank-chunks", "9"])
print(json.dumps({"column": ComparisonRun._meta.get_field("rerank_chunks").default,
                  "form": [field.min_value, field.max_value, field.initial],
                  "api": [schema["anyOf"][0]["minimum"], schema["anyOf"][0]["maximum"]], "cli": args.rerank_chunks}))
"""


def test_a_new_row_is_a_column_a_form_field_an_api_field_and_a_flag(tmp_path):
    for part in ("engine", "workloads", "costplanner", "templates"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    table = tmp_path / "engine" / "core" / "run_settings.py"
    text = table.read_text()
    end = text.index("\n)\nDEFAULTS = ")
    table.write_text(text[:end + 1] + ROW + text[end + 1:])

    result = subprocess.run([sys.executable, "-c", READ_BACK], cwd=tmp_path, capture_output=True, text=True,
                            timeout=300, env={**os.environ, "PYTHONPATH": str(tmp_path),
                                              "DJANGO_SETTINGS_MODULE": "costplanner.settings"})

    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {
        "column": 8, "form": [1, 64, 8], "api": [1, 64], "cli": 9}
    migration = (tmp_path / "migration.txt").read_text()
    assert "+ Add field rerank_chunks to comparisonrun" in migration
    assert migration.count("migrations.AddField(") == 1 and "AlterField" not in migration


def test_every_row_reaches_the_engine():
    attention = {f.name for f in dataclasses.fields(AttentionConfig)}
    work = {f.name for f in dataclasses.fields(ComparisonWork)}
    for setting in run_settings.SETTINGS:
        assert setting.name in (attention if setting.attention else work), setting.name
    settled = run_settings.check_values({"window": 512, "chunk_tokens": 256, "indexer": "exact"})
    made = ComparisonWork.from_settings([], [], ["chunked"], settled, prices=ComparisonWork([], []).prices)
    assert (made.attention.window, made.attention.indexer, made.chunk_tokens) == (512, "exact", 256)
    assert made.attention == run_settings.attention(settled)
