"""What a run tells its readers: its one recommendation (recommendation, as every page, the PDF and the mail state
it), the changes since the previous period's run (changes, judged against how far reruns move a cost:
rerun_spread), the schedule that fires runs (scheduling), the pages' charts (page_charts, chart_notes), CSV and
JSON files (data_exports), and the manager's PDF summary (summary).

Layer: above comparisons; may import comparisons, documents, models, formatting, workers and engine.core, never
the API or the views (a lower layer reaches it through a signal: workloads/signals.py).
"""
