"""Comparison runs: which models a workload targets (target_models), which strategies fit them (fit), starting and
cancelling a run (starting), its report stored as rows (results), priced from the price book (pricing), and the
projection of its costs as the context grows (planning).

Layer: above documents; may import documents, models, formatting, workers (to queue a task) and engine.core, never
reporting, the API or the views.
"""
