"""plotly.js served from the plotly package's own copy (never a CDN), and nothing else of that package.

Naming the package's `package_data` folder in STATICFILES_DIRS would also collect its datasets,
templates and widget bundle: 5 MB more to hash and compress in every image, served to nobody.
"""

from __future__ import annotations

from pathlib import Path

import plotly
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage

PREFIX, NAME = "plotly", "plotly.min.js"


class PlotlyFinder(BaseFinder):
    """Finds `plotly/plotly.min.js` alone."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.storage = FileSystemStorage(location=Path(plotly.__file__).parent / "package_data")
        self.storage.prefix = PREFIX  # collectstatic copies the file under this folder

    def find(self, path, find_all=False, **kwargs):
        found = [self.storage.path(NAME)] if path == f"{PREFIX}/{NAME}" else []
        # Django's own finders answer a miss with [] even when not finding all: finders.find() relies on it.
        return found[0] if found and not find_all else found

    def list(self, ignore_patterns):
        yield NAME, self.storage
