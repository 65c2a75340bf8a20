"""The web image's gunicorn loads the app, with every view, in its master before it forks the workers (the config file
its command names): a worker's first request pays no import, and the web process still loads no torch."""

import json
import os
import subprocess
import sys

from tests.deploy.conftest import ROOT, dockerfile_stages, instructions

SCRIPT = r"""
import json, sys
from gunicorn.app.base import Application

class Master(Application):
    def load_config(self):
        self.load_config_from_file(sys.argv[1])
    def load(self):
        from costplanner.wsgi import application
        return application

master = Master()
master.wsgi()  # what the master does with preload_app before the first fork
master.cfg.when_ready(None)
loaded = sorted(m for m in sys.modules if m.startswith(("workloads.views.", "workloads.api.")))
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "transformers", "triton"))
print(json.dumps({"preload": master.cfg.preload_app, "loaded": loaded, "heavy": heavy[:5]}))
"""


def _image_config() -> str:
    """The config file the web image's command passes gunicorn: the only one it reads (gunicorn reads
    ./gunicorn.conf.py only when no --config is given)."""
    argv = json.loads(instructions(dockerfile_stages()["web"], "CMD")[-1])
    return argv[argv.index("--config") + 1]


def test_the_master_imports_every_view_before_forking(tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "costplanner.settings", "SECRET_KEY": os.environ["SECRET_KEY"],
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, _image_config()], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)

    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["preload"] is True
    assert {"workloads.views.run_pages", "workloads.views.dashboard", "workloads.api.run_endpoints"} <= set(
        result["loaded"])
    assert result["heavy"] == []
