"""The Celery app, as Django's documented pattern: every CELERY_* setting, tasks found in apps."""

import os

from celery import Celery

from engine.core.openmp import wait_passively

# The worker prices the CPU time of its torch calls: OpenMP threads must sleep, not spin, while they
# wait, and OpenMP reads this once, when torch loads (engine/core/openmp.py).
wait_passively()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "costplanner.settings")

from costplanner import worker_priority  # noqa: E402,F401  (lowers a worker's CPU priority when it starts)

app = Celery("costplanner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
