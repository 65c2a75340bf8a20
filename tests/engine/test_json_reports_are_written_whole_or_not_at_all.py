"""The engine's one writer of reports: the new file whole, or the old file untouched and no temporary file left."""

import json

import pytest

from engine.core.errors import EngineError
from engine.core.jsonfile import write_json_atomic


def test_it_writes_indented_json_that_reads_back_and_replaces_the_old_file(tmp_path):
    path = tmp_path / "report.json"
    path.write_text("old")
    write_json_atomic(path, {"strategies": {"dense": 1.5}, "rows": [1, 2]})
    text = path.read_text(encoding="utf-8")
    assert json.loads(text) == {"strategies": {"dense": 1.5}, "rows": [1, 2]}
    assert text.startswith('{\n  "strategies"') and text.endswith("}\n")
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_failed_write_keeps_the_old_file_and_names_the_path(tmp_path, monkeypatch):
    path = tmp_path / "report.json"
    path.write_text('{"old": true}')

    def disk_full(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("engine.core.jsonfile.os.replace", disk_full)
    with pytest.raises(EngineError, match="cannot write .*report.json: No space left on device"):
        write_json_atomic(path, {"new": True})
    assert json.loads(path.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_missing_folder_is_an_engine_error_not_a_traceback(tmp_path):
    with pytest.raises(EngineError, match="cannot write .*no/such/report.json"):
        write_json_atomic(tmp_path / "no" / "such" / "report.json", {})
