"""The tasks call the services; the services queue tasks by name (workloads.workers.dispatch), never by importing
the task module. So no module of the app imports workloads.tasks but the worker's own entry points, and the app's
modules import one another without a loop, counting the imports made inside functions, which run later but run all
the same.
The engine's too: a loop through function-level imports (generate → loader → provisioning → speed → generate) hid
from a scan of the web app alone.
"""

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Celery's worker imports the task module by autodiscovery (costplanner/celery.py). The sample loader extracts the
# sample's upload here and now, as a worker would, so that its first comparison can be queued at once.
RUN_TASKS_THEMSELVES = {"workloads.management.commands.loadsample"}


def _modules() -> dict[str, Path]:
    """Every module of the app, by dotted name (a package by its __init__)."""
    found = {}
    for path in [*(ROOT / "workloads").rglob("*.py"), *(ROOT / "costplanner").rglob("*.py"),
                 *(ROOT / "engine").rglob("*.py")]:
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The app's modules that this module imports, wherever in it the import statement is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, `level - 1` packages up
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # `from workloads import tasks` imports the module workloads.tasks; `from workloads.models import Run`
            # imports workloads.models.
            imported |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names}
    return {module for module in imported if module in modules and module != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def test_the_scan_sees_imports_made_inside_functions_and_from_packages():
    graph = _graph()
    assert "workloads.tasks" in graph["workloads.management.commands.loadsample"]  # `from workloads.tasks import`
    assert {"workloads.workers.dispatch", "workloads.models"} <= graph["workloads.comparisons.starting"]
    assert "workloads.reporting.summary.content" in graph["workloads.tasks"]  # imported inside export_summary
    assert "engine.model.speed_measurement" in graph["engine.cli"]  # imported inside cmd_provision


def test_only_the_worker_and_its_entry_points_import_the_task_module():
    importers = {name for name, imported in _graph().items() if "workloads.tasks" in imported}
    assert importers == RUN_TASKS_THEMSELVES


def test_the_apps_modules_import_one_another_without_a_loop():
    try:
        graphlib.TopologicalSorter(_graph()).prepare()
    except graphlib.CycleError as exc:
        raise AssertionError(f"an import loop: {' -> '.join(exc.args[1])}") from None
