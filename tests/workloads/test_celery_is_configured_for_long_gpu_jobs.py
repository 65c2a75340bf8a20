"""Celery follows the job rules: gpu queue for inference, late acks, one prefetch,
limits inside the visibility timeout."""

import os
import subprocess
import sys

from django.conf import settings
from django.core.checks import run_checks
from django.test import override_settings

from costplanner.celery import app
from tests.workloads.test_project_boots_against_postgres import ROOT


def test_inference_goes_to_the_gpu_queue_and_the_rest_to_default():
    router = app.amqp.router
    assert router.route({}, "workloads.run_comparison")["queue"].name == "gpu"
    assert router.route({}, "workloads.extract_upload")["queue"].name == "default"
    assert router.route({}, "workloads.generate_probes")["queue"].name == "default"


def test_a_lost_job_is_delivered_again_but_never_twice_at_once():
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_soft_time_limit < app.conf.task_time_limit
    assert app.conf.broker_transport_options["visibility_timeout"] > app.conf.task_time_limit


def test_a_visibility_timeout_shorter_than_a_job_fails_the_system_check():
    with override_settings(CELERY_BROKER_TRANSPORT_OPTIONS={"visibility_timeout": settings.CELERY_TASK_TIME_LIMIT}):
        assert "costplanner.E001" in {e.id for e in run_checks()}


def test_an_unknown_broker_scheme_fails_the_system_check():
    with override_settings(CELERY_BROKER_URL="http://127.0.0.1:6379/0"):
        assert "costplanner.E002" in {e.id for e in run_checks()}


def test_a_missing_model_path_is_a_warning():
    with override_settings(COSTPLANNER_MODELS={"Mine": "/nowhere/model"}):
        assert "costplanner.W001" in {e.id for e in run_checks()}


def test_the_worker_imports_its_tasks_without_torch():
    """CUDA must not be touched before the worker forks: loading the tasks must not even import torch."""
    code = ("import django, sys; django.setup(); from costplanner.celery import app; "
            "app.loader.import_default_modules(); import workloads.tasks; print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={"DJANGO_SETTINGS_MODULE": "costplanner.settings", "SECRET_KEY": os.environ["SECRET_KEY"],
                              "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
