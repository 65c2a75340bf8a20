"""Turn uploaded files (PDF, DOCX, text, source code, JSON transcripts, ZIP archives) into plain text.

Pure Python, no Django: the caller stores the results, counts tokens and enforces the total-token limit.
"""

from .datatypes import MAX_NAME_LENGTH, Extracted, Limits
from .extract import extract_file

__all__ = ["MAX_NAME_LENGTH", "Extracted", "Limits", "extract_file"]
