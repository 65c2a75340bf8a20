"""A comparison run's setting columns, made from the table in engine.core.run_settings: a new setting there is a new
column here, and `makemigrations` writes its migration."""

from __future__ import annotations

from django.db import models

from engine.core.run_settings import SETTINGS, Setting


def _column(setting: Setting) -> models.Field:
    options = {"default": setting.default, "help_text": setting.help}
    if setting.choices:
        return models.CharField(max_length=32, **options)  # the engine checks the value against setting.choices
    if setting.kind is float:
        return models.FloatField(**options)
    return models.PositiveIntegerField(**options)


class _Meta:
    abstract = True


# An abstract model, built from the table: ComparisonRun inherits its columns.
RunSettingColumns = type("RunSettingColumns", (models.Model,), {
    "__module__": __name__, "Meta": _Meta, **{setting.name: _column(setting) for setting in SETTINGS}})
