"""The workers that share the web server's machine run below it: compose's CPU worker by its container's CPU shares,
and both workers of the embedded default, which runs comparisons on the CPU, by a niceness
(costplanner/worker_priority.py)."""

import re

from tests.deploy.conftest import ROOT


def test_composes_cpu_worker_runs_below_the_web_server(services):
    # A container is a cgroup: the kernel shares the CPU between them by weight, 1024 unless given.
    assert services["worker-cpu"]["cpu_shares"] < services["web"].get("cpu_shares", 1024)


def test_the_embedded_defaults_workers_run_below_its_web_server():
    script = (ROOT / "scripts" / "embedded.sh").read_text()
    exported = re.search(r'^export WORKER_NICENESS="\$\{WORKER_NICENESS:-(\d+)\}"$', script, re.M)
    assert exported and int(exported.group(1)) > 0
    first_worker = script.index("celery -A costplanner worker")
    assert exported.start() < first_worker  # the workers start with it in their environment
