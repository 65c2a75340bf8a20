"""With DEBUG off, an empty, short or placeholder SECRET_KEY stops every process at start, with a clear error that
says how to make a good one (an empty key used to start, pass `check`, and answer every sign-in with a 500)."""

import os
import secrets
import subprocess
import sys

import pytest

from tests.deploy.conftest import ROOT, env_example

HOW_TO_MAKE_ONE = "python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def _manage(*args, **overrides) -> subprocess.CompletedProcess:
    env = {**os.environ, **env_example(), **overrides}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_placeholder_key_is_refused_with_a_clear_error():
    assert "change-me" in env_example()["SECRET_KEY"]

    result = _manage("check")

    assert result.returncode != 0
    assert "SECRET_KEY is still .env.example's placeholder" in result.stderr and HOW_TO_MAKE_ONE in result.stderr


def test_the_placeholder_is_refused_whatever_its_case():
    assert _manage("check", SECRET_KEY="CHANGE-ME-please").returncode != 0


def test_an_empty_key_is_refused():
    result = _manage("check", SECRET_KEY="")

    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is empty" in result.stderr and HOW_TO_MAKE_ONE in result.stderr


@pytest.mark.parametrize("key", ["x", secrets.token_urlsafe(36),  # 48 characters
                                 "ab" * 30,  # 60 characters, 2 distinct
                                 "django-insecure-" + secrets.token_urlsafe(50)])  # startproject's marker
def test_a_weak_key_is_refused(key):
    result = _manage("check", SECRET_KEY=key)

    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is weak" in result.stderr and HOW_TO_MAKE_ONE in result.stderr


def test_a_good_key_starts():
    result = _manage("check", SECRET_KEY=secrets.token_urlsafe(38))  # 51 characters

    assert result.returncode == 0, result.stderr


def test_with_debug_on_a_development_machine_may_keep_a_weak_one():
    assert _manage("check", DEBUG="1").returncode == 0
    assert _manage("check", DEBUG="1", SECRET_KEY="x").returncode == 0
