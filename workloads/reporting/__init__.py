"""What a run tells its readers: its period (periods) and the changes since the previous one (changes), the
schedule that fires runs (scheduling), the pages' charts (page_charts, chart_notes), CSV and JSON files
(data_exports), and the manager's PDF summary (summary)."""
