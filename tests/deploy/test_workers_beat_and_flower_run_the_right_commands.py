"""The GPU worker reserves an NVIDIA GPU for one job at a time; the CPU worker, beat and flower run what exists."""

import importlib.util
import json
import os

from django.conf import settings

from engine.cli import build_parser
from tests.deploy.conftest import ROOT, dockerfile_stages, image_env, instructions


def test_the_gpu_worker_reserves_an_nvidia_gpu(services):
    worker = services["worker-gpu"]
    assert worker["deploy"]["resources"]["reservations"]["devices"] == [
        {"driver": "nvidia", "count": 1, "capabilities": ["gpu"]}]
    assert worker["build"] == {"context": ".", "target": "gpu"}


def test_the_gpu_worker_takes_the_gpu_queue_one_job_at_a_time(services):
    command = services["worker-gpu"]["command"]
    assert command[:4] == ["celery", "-A", "costplanner", "worker"]
    assert command[command.index("-Q") + 1] == "gpu"
    assert "--concurrency=1" in command
    # The same as the GPU image runs on its own (`docker run` on another machine).
    assert json.loads(instructions(dockerfile_stages()["gpu"], "CMD")[-1]) == command


def test_the_workers_and_the_web_app_read_the_model_from_the_weights_volume(services):
    cache = image_env(dockerfile_stages()["base"])["ENGINE_CACHE_DIR"]
    for name in ["worker-gpu", "worker-cpu", "web", "provision"]:
        assert "models:/models" in services[name]["volumes"], name
    assert cache.startswith("/models/")  # the default model is converted onto the volume, once


def test_the_web_app_and_the_cpu_worker_share_the_uploads_volume(services):
    """web stores the originals, worker-cpu extracts and purges them, migrate moved the old ones out of the database;
    Django spools uploads onto the same volume, so that storing one is a rename."""
    base = image_env(dockerfile_stages()["base"])
    assert base["MEDIA_ROOT"].startswith("/uploads/") and base["FILE_UPLOAD_TEMP_DIR"].startswith("/uploads/")
    for name in ["web", "worker-cpu", "migrate"]:
        assert "uploads:/uploads" in services[name]["volumes"], name
    assert "uploads:/uploads" not in services["worker-gpu"]["volumes"]  # a GPU machine reads no upload


def test_the_cpu_worker_takes_the_default_queue(services):
    command = services["worker-cpu"]["command"]
    assert command[:4] == ["celery", "-A", "costplanner", "worker"]
    assert command[command.index("-Q") + 1] == "default" == settings.CELERY_TASK_DEFAULT_QUEUE
    assert settings.CELERY_TASK_ROUTES["workloads.run_comparison"] == {"queue": "gpu"}


def test_beat_uses_the_database_scheduler(services):
    command = services["beat"]["command"]
    assert command[:4] == ["celery", "-A", "costplanner", "beat"]
    assert not any(arg.startswith(("-S", "--scheduler")) for arg in command)  # settings choose it
    assert settings.CELERY_BEAT_SCHEDULER == "django_celery_beat.schedulers:DatabaseScheduler"
    assert "django_celery_beat" in settings.INSTALLED_APPS


def test_the_commands_name_modules_that_exist(services):
    from costplanner import celery_app

    assert celery_app.main == "costplanner"  # `celery -A costplanner` finds this app
    assert importlib.util.find_spec("costplanner.wsgi") is not None
    assert build_parser().parse_args(["provision"]).func.__name__ == "cmd_provision"
    assert (ROOT / "manage.py").is_file()
    flower = ROOT / services["flower"]["command"][0]
    assert flower.is_file() and os.access(flower, os.X_OK)
