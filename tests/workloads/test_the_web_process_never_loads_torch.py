"""A web process serves every page and every API read without importing torch, transformers or triton.

The pages run in a fresh Python process (this test process imported torch long ago), against the test database
this test fills and commits, so the check sees exactly what a gunicorn worker would import.
"""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.workloads.pages.conftest import make_run, standard_report
from workloads.models import ApiToken, Document, GroupSweep, Summary, Upload

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Every page a member reads, by URL name and the object its arguments name.
PAGES = [("dashboard", ()), ("workload_create", ()), ("workload_detail", ("workload",)),
         ("workload_edit", ("workload",)), ("document_detail", ("workload", "document")),
         ("document_text", ("workload", "document")), ("planning", ("workload",)), ("schedule_edit", ("workload",)),
         ("organisation_edit", ()), ("upload_create", ("workload",)), ("upload_detail", ("upload",)),
         ("upload_status", ("upload",)), ("probe_create", ("workload",)), ("probe_edit", ("workload", "probe")),
         ("run_create", ("workload",)), ("runs_csv", ("workload",)), ("run_detail", ("run",)),
         ("run_status", ("run",)), ("run_export_csv", ("run",)), ("run_export_json", ("run",)),
         ("workload_history_csv", ("workload",)), ("workload_history_json", ("workload",)), ("price_book", ()),
         ("run_delete", ("run",)), ("workload_delete", ("workload",)), ("sweep_detail", ("sweep",)), ("endpoints", ())]

SCRIPT = r"""
import json, sys
import django
django.setup()
from django.test import Client
from django.urls import reverse
from django.contrib.auth.models import User

ids, token = json.loads(sys.argv[1]), sys.argv[2]
client = Client()
client.force_login(User.objects.get(username="alice"))
failed = []
for name, objects in json.loads(sys.argv[3]):
    url = reverse(name, args=[ids[o] for o in objects])
    status = client.get(url).status_code
    if status != 200:
        failed.append(f"{url}: {status}")
api = Client(headers={"Authorization": f"Bearer {token}"})
schema = api.get("/api/openapi.json").json()
for path, operations in schema["paths"].items():
    if "get" not in operations:
        continue
    url = path.format(workload_id=ids["workload"], run_id=ids["run"], document_id=ids["document"],
                      upload_id=ids["upload"], sweep_id=ids["sweep"])
    status = api.get(url).status_code
    if status != 200:
        failed.append(f"{url}: {status}")
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "transformers", "triton"))
print(json.dumps({"failed": failed, "heavy": heavy[:10], "pages": len(json.loads(sys.argv[3]))}))
"""


@pytest.mark.django_db(transaction=True)
def test_every_page_and_api_read_renders_without_torch(alice, workload, probe, prices):
    run = make_run(workload, standard_report(probe))
    document = Document.objects.create(workload=workload, name="msa.txt", text="The notice period is 90 days.",
                                       tokens=8, lines=1, size_bytes=29)
    upload = Upload.objects.create(workload=workload, created_by=alice)
    Summary.objects.create(run=run, status=Summary.Status.DONE, pdf=b"%PDF-1.7 test", pages=1)
    sweep = GroupSweep.objects.create(workload=workload, model=workload.target_model, group_sizes=[1, 4])
    ids = {"workload": workload.pk, "run": run.pk, "document": document.pk, "upload": upload.pk, "probe": probe.pk,
           "sweep": sweep.pk}
    database = settings.DATABASES["default"]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "costplanner.settings", "ALLOWED_HOSTS": "testserver",
           "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
           "PYTHONPATH": ROOT}

    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(ids), ApiToken.issue(alice), json.dumps(PAGES)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)

    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["failed"] == [] and result["pages"] == len(PAGES)
    assert result["heavy"] == [], f"the web process imported {result['heavy']}"
