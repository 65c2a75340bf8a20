"""With DEBUG off, .env.example's placeholder SECRET_KEY stops every process at start, with a clear error."""

import os
import subprocess
import sys

from tests.deploy.conftest import ROOT, env_example


def _manage(*args, **overrides) -> subprocess.CompletedProcess:
    env = {**os.environ, **env_example(), **overrides}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_placeholder_key_is_refused_with_a_clear_error():
    assert "change-me" in env_example()["SECRET_KEY"]

    result = _manage("check")

    assert result.returncode != 0
    assert "SECRET_KEY is still .env.example's placeholder" in result.stderr


def test_the_placeholder_is_refused_whatever_its_case():
    assert _manage("check", SECRET_KEY="CHANGE-ME-please").returncode != 0


def test_with_debug_on_a_development_machine_may_keep_it():
    assert _manage("check", DEBUG="1").returncode == 0
