"""Flower refuses to start without FLOWER_BASIC_AUTH, and with it answers nobody who lacks the password."""

import base64
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from django.conf import settings

from tests.deploy.conftest import ROOT, free_port
from tests.workloads.live import start, stop, wait_for

SCRIPT = str(ROOT / "deploy" / "flower.sh")
VENV_PATH = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]


@pytest.mark.parametrize("value", [None, "", "admin", "admin:", ":secret"])
def test_it_refuses_to_start_without_a_user_and_password(value):
    env = {k: v for k, v in os.environ.items() if k != "FLOWER_BASIC_AUTH"} | {"PATH": VENV_PATH}
    if value is not None:
        env["FLOWER_BASIC_AUTH"] = value

    result = subprocess.run([SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)

    assert result.returncode == 1
    assert "set FLOWER_BASIC_AUTH=user:password" in result.stderr


def _status(url: str, auth: str | None = None) -> int:
    headers = {"Authorization": "Basic " + base64.b64encode(auth.encode()).decode()} if auth else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def test_it_asks_for_the_password(tmp_path):
    port = free_port()
    log = tmp_path / "flower.log"
    process = start([SCRIPT], log, PATH=VENV_PATH, FLOWER_BASIC_AUTH="admin:s3cret", FLOWER_PORT=str(port),
                    FLOWER_ADDRESS="127.0.0.1", SECRET_KEY=os.environ["SECRET_KEY"],
                    CELERY_BROKER_URL=settings.CELERY_BROKER_URL)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for(lambda: _status(url) or process.poll() is not None, 60, "flower to start")
        assert process.poll() is None, log.read_text()
        assert _status(url) == 401
        assert _status(url, "admin:wrong") == 401
        assert _status(url, "admin:s3cret") == 200
    finally:
        stop(process)
