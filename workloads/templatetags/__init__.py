"""The filters the templates use, made from workloads.formatting; no code imports this package (import-linter)."""
