"""The manager's PDF summary of a run: the decision in one sentence (workloads.reporting.recommendation, as every
page states it), then the figures behind it.

content         everything the PDF shows, gathered as plain data (the template runs no queries)
pdf_charts      matplotlib charts as PNG data URIs
render          HTML template to PDF bytes with WeasyPrint
pdf_exports     asking for a summary (a Summary row and its task), and serving the newest one
mail, smtp      e-mailing a finished summary to the organisation's recipients
"""
