"""Reports and probe files written whole or not at all.

Each file is written to a temporary file beside it and then renamed over it (a rename
within one folder is atomic): a reader never sees half a file, and a failed write
leaves the old file as it was and no temporary file behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from engine.core.errors import EngineError


def write_json_atomic(path: str | os.PathLike, data) -> None:
    """`data` as indented JSON with a final newline; EngineError naming the path if it cannot be written."""
    write_text_atomic(path, json.dumps(data, indent=2) + "\n")


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """`text` in UTF-8; EngineError naming the path if it cannot be written."""
    path = Path(path)
    handle = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                         delete=False) as handle:
            handle.write(text)
        os.replace(handle.name, path)
    except OSError as exc:
        raise EngineError(f"cannot write {path}: {exc.strerror or exc}") from exc
    finally:
        if handle is not None:  # a failed write's temporary file; after the rename there is none left
            Path(handle.name).unlink(missing_ok=True)
