"""The Celery app, as Django's documented pattern: every CELERY_* setting, tasks found in apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "costplanner.settings")

app = Celery("costplanner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
