"""A run's columns that hold JSON, some of it large (a finished run's whole report is tens of kilobytes): what a
list of runs, or a page that only links to a run, leaves unread (QuerySet.defer). Decoding them was a third of the
API's list of runs."""

JSON = ("report", "documents", "versions", "changes", "queued_with")
