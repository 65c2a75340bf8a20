"""Starting a comparison, from its page or the API, loads no torch, transformers or triton into the web process: the
run is only queued (workloads.workers.dispatch sends the task by name), and the checks before it read the model's
metadata without the model. Run in a fresh Python process, as a gunicorn worker's first start would be."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

from engine.core.run_settings import DEFAULTS
from workloads.models import ApiToken, ComparisonRun

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = r"""
import json, sys, time
import django
django.setup()
from django.contrib.auth.models import User
from django.test import Client

workload, token, form = int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
page = Client()
page.force_login(User.objects.get(username="alice"))
started = time.perf_counter()
by_page = page.post(f"/workloads/{workload}/runs/new/", form).status_code
by_api = Client(headers={"Authorization": f"Bearer {token}"}).post(
    f"/api/workloads/{workload}/runs", json.dumps({"strategies": ["chunked"]}), content_type="application/json")
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "transformers", "triton"))
print(json.dumps({"page": by_page, "api": by_api.status_code, "heavy": heavy[:10],
                  "seconds": time.perf_counter() - started}))
"""


@pytest.mark.django_db(transaction=True)
def test_starting_a_run_by_page_and_by_api_loads_no_torch(alice, ready_workload):
    database = settings.DATABASES["default"]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "costplanner.settings", "SECRET_KEY": os.environ["SECRET_KEY"],
           "ALLOWED_HOSTS": "testserver", "PYTHONPATH": ROOT,
           "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"}
    form = {"strategies": ["chunked", "full_index_share"], **DEFAULTS}

    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ready_workload.pk), ApiToken.issue(alice),
                           json.dumps(form)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)

    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert (result["page"], result["api"]) == (302, 202), done.stderr[-3000:]
    assert ComparisonRun.objects.filter(workload=ready_workload, status="queued").count() == 2
    assert result["heavy"] == [], f"starting a run imported {result['heavy']}"
