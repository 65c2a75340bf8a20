"""The workers that share the web server's machine are given a niceness (costplanner/worker_priority.py): compose's CPU
worker, and both workers of the embedded default, which runs comparisons on the CPU."""

import re

from tests.deploy.conftest import ROOT


def test_composes_cpu_worker_runs_below_the_web_server(services):
    assert int(services["worker-cpu"]["environment"]["WORKER_NICENESS"]) > 0
    assert "WORKER_NICENESS" not in services["web"].get("environment", {})


def test_the_embedded_defaults_workers_run_below_its_web_server():
    script = (ROOT / "scripts" / "embedded.sh").read_text()
    exported = re.search(r'^export WORKER_NICENESS="\$\{WORKER_NICENESS:-(\d+)\}"$', script, re.M)
    assert exported and int(exported.group(1)) > 0
    first_worker = script.index("celery -A costplanner worker")
    assert exported.start() < first_worker  # the workers start with it in their environment
