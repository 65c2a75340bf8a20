"""The web image's gunicorn gives a request 120 s (deploy/gunicorn.conf.py, not the command line), so that an operator
whose clients send the largest upload over a slow link raises it with GUNICORN_CMD_ARGS, without a new command."""

import json
import os
import subprocess
import sys

from tests.deploy.conftest import ROOT, dockerfile_stages, instructions


def _timeout(**env) -> int:
    argv = json.loads(instructions(dockerfile_stages()["web"], "CMD")[-1])
    assert "--timeout" not in argv, "a --timeout on the command line would override GUNICORN_CMD_ARGS"
    done = subprocess.run([sys.executable, "-m", *argv, "--print-config"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True,
                          env={**os.environ, "DJANGO_SETTINGS_MODULE": "costplanner.settings", **env})
    line = next(line for line in done.stdout.splitlines() if line.split("=")[0].strip() == "timeout")
    return int(line.split("=")[1])


def test_the_timeout_is_120_seconds_unless_the_operator_says_otherwise():
    assert _timeout() == 120
    assert _timeout(GUNICORN_CMD_ARGS="--timeout 600") == 600
