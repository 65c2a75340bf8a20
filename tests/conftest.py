"""Test settings: the real PostgreSQL and Redis on this machine, kept apart from development data."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key")
# Redis database 15 for tests, so a test's queued messages never reach a development worker.
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
