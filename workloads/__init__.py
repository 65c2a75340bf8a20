"""The Django app. Its layers, each importing only those below it (import-linter, pyproject.toml): tasks, views,
api, reporting, comparisons, documents, models. Only tasks imports the engine's runtime; the rest import engine.core."""
