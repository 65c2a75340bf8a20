"""The models a workload can target, from settings.COSTPLANNER_MODELS (display name -> engine path)."""

from django.conf import settings


def model_names() -> list[str]:
    return list(settings.COSTPLANNER_MODELS)


def model_path(name: str) -> str | None:
    """The engine's path for a target model; None means the engine's default model."""
    return settings.COSTPLANNER_MODELS[name] or None
