"""The Django project's settings load from the environment and reach the real PostgreSQL."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, **env}, timeout=120,
    )


def test_it_passes_system_checks_with_its_database():
    result = _manage("check", "--database", "default", DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres",
                     EMAIL_URL="smtp://127.0.0.1:25")  # without one, costplanner.W002 warns
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_it_refuses_to_start_without_a_secret_key_outside_debug():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
        env={**env, "DEBUG": "0"}, timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_its_migrations_match_its_models():
    result = _manage("makemigrations", "--check", "--dry-run",
                     DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres")
    assert result.returncode == 0, result.stdout + result.stderr
