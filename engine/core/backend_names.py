"""The attention backends' names and the variable that picks one.

Kept free of torch: the web app's system check reads them in the Celery worker's
parent process, which must not import torch before it forks (see
engine/attention/backends.py for the backends themselves).
"""

from __future__ import annotations

import importlib.util

from engine.core.errors import EngineError

BACKENDS = ("auto", "torch", "triton")
BACKEND_ENV = "COSTPLANNER_ATTENTION_BACKEND"


def check_name(name: str) -> str:
    if name not in BACKENDS:
        raise EngineError(f"unknown attention backend {name!r}; choose one of {', '.join(BACKENDS)}")
    return name


def triton_installed() -> bool:
    return importlib.util.find_spec("triton") is not None
