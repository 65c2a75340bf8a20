"""System checks for configuration that must be right before a job can run (manage.py check)."""

import os
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Error, Warning, register

from engine.core.errors import EngineError

BROKER_SCHEMES = {"redis", "rediss", "amqp", "amqps", "pyamqp", "filesystem", "sqla+sqlite", "sqla+postgresql"}


@register()
def check_broker(app_configs, **kwargs):
    errors = []
    scheme = urlsplit(settings.CELERY_BROKER_URL).scheme
    if scheme not in BROKER_SCHEMES:
        errors.append(Error(f"CELERY_BROKER_URL has the scheme {scheme!r}", id="costplanner.E002",
                            hint=f"use one of {', '.join(sorted(BROKER_SCHEMES))}"))
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
    if timeout <= settings.CELERY_TASK_TIME_LIMIT:
        errors.append(Error(
            f"the broker's visibility timeout ({timeout} s) is not longer than the longest job "
            f"({settings.CELERY_TASK_TIME_LIMIT} s)",
            id="costplanner.E001", hint="a running job would be delivered again to a second worker"))
    return errors


@register()
def check_models(app_configs, **kwargs):
    from workloads.comparisons.target_models import model_path

    if not settings.COSTPLANNER_MODELS:
        return [Error("COSTPLANNER_MODELS is empty: no model for workloads to target", id="costplanner.E003")]
    # The engine's default model (no path) is provisioned by `make`. Other paths' headers are read (no torch).
    paths = {name: model_path(name) for name in settings.COSTPLANNER_MODELS if model_path(name)}
    if not paths:
        return []
    from engine.core.model_metadata import read_metadata

    warnings = []
    for name, path in paths.items():
        try:
            read_metadata(path)
        except EngineError as exc:
            warnings.append(Warning(f"model {name!r} cannot be read: {exc}", id="costplanner.W001",
                                    hint="workers with this model path will fail its runs"))
    return warnings


@register()
def check_attention_backend(app_configs, **kwargs):
    """COSTPLANNER_ATTENTION_BACKEND, read by the engine in the worker: caught here, not mid-run."""
    from engine.core.backend_names import BACKEND_ENV, BACKENDS, triton_installed

    name = os.environ.get(BACKEND_ENV, "auto")
    if name not in BACKENDS:
        return [Error(f"{BACKEND_ENV} is {name!r}", id="costplanner.E004", hint=f"use one of {', '.join(BACKENDS)}")]
    if name == "triton" and not triton_installed():
        return [Error(f"{BACKEND_ENV} is 'triton' but the triton package is not installed", id="costplanner.E005")]
    return []


@register()
def check_mail(app_configs, **kwargs):
    if settings.DEBUG or settings.EMAIL_BACKEND != "django.core.mail.backends.console.EmailBackend":
        return []
    return [Warning("EMAIL_URL is not set: scheduled PDF summaries are printed to the worker's log, not mailed",
                    id="costplanner.W002", hint="set EMAIL_URL, e.g. smtp+tls://user:password@mail.example.com:587")]
