"""The layers hold, counting imports made inside functions (issue 37): the engine knows nothing of the web app, its
core is torch-free, what serves a request imports only that core, and the web app's layers import downwards only.
import-linter checks the contracts in pyproject.toml; a copy of the code with two deliberate breaks shows that the
check can fail. The fresh-process torch tests stay: they check what a running process loads, which imports alone
cannot. And no two modules share a name, so that a path names one thing."""

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--no-cache"], cwd=where, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"})


def test_every_contract_is_kept():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 6 kept, 0 broken." in result.stdout


def test_a_break_of_a_layer_or_of_the_torch_rule_fails_the_check(tmp_path):
    for package in ("engine", "workloads", "costplanner"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    # The core's run settings are read by every page; the change tables are reporting, below the views.
    with (tmp_path / "engine" / "core" / "run_settings.py").open("a") as f:
        f.write("\n\ndef _late():\n    import torch  # noqa\n")
    with (tmp_path / "workloads" / "reporting" / "changes.py").open("a") as f:
        f.write("\n\nfrom workloads.views import dashboard  # noqa\n")

    result = _lint(tmp_path)

    assert result.returncode != 0
    assert "Contracts: 3 kept, 3 broken." in result.stdout
    assert "engine.core.run_settings -> torch" in result.stdout
    assert "The engine's core is torch-free BROKEN" in result.stdout
    assert "The web process imports only the engine's core BROKEN" in result.stdout
    assert "workloads.reporting.changes -> workloads.views.dashboard" in result.stdout


# Names Python and Django give a module in every package that has one.
CONVENTIONAL = {"__init__.py", "__main__.py", "urls.py"}


def test_no_two_modules_share_a_name():
    # errors.py, upload_jobs.py, group_sweeps.py and settings.py each existed twice.
    names = Counter(path.name for package in ("engine", "workloads", "costplanner")
                    for path in (ROOT / package).rglob("*.py")
                    if "migrations" not in path.parts and path.name not in CONVENTIONAL)
    assert [name for name, count in names.items() if count > 1] == []
