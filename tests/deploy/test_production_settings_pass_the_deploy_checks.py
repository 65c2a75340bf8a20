"""With .env.example's production settings (and a real secret key), `manage.py check --deploy` passes.

Two warnings stay, because only the operator can decide them: HSTS for every subdomain (W005) and
submitting the domain to the browsers' HSTS preload list (W021).
"""

import os
import re
import secrets
import subprocess
import sys

from tests.deploy.conftest import ROOT, env_example

OPERATORS_CHOICES = {"security.W005", "security.W021"}


def _check_deploy(**overrides) -> tuple[int, set[str]]:
    env = {**os.environ, **env_example(), "SECRET_KEY": secrets.token_urlsafe(50), **overrides}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=120)
    return result.returncode, set(re.findall(r"\((\w+\.[WE]\d+)\)", result.stdout + result.stderr))


def test_env_example_passes_the_deploy_checks():
    _, issues = _check_deploy()

    assert issues == OPERATORS_CHOICES


def test_the_deploy_checks_catch_plain_http_settings():
    returncode, issues = _check_deploy(SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0", SECURE_HSTS_SECONDS="0")

    assert returncode != 0
    assert {"security.W004", "security.W008", "security.W012", "security.W016"} <= issues


def test_the_checks_warn_when_summaries_would_only_reach_the_log():
    returncode, issues = _check_deploy(EMAIL_URL="consolemail://")

    assert returncode != 0 and "costplanner.W002" in issues
