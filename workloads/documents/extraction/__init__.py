"""Turn uploaded files (PDF, DOCX, text, source code, JSON transcripts, ZIP archives) into plain text.

Pure Python, no Django: the caller stores the results, counts tokens and enforces the total-token limit
(token_floor.py lets it refuse text that cannot fit before counting). PDF and DOCX files are read in a child
process with a memory cap and a deadline (isolation.py).
"""

from .datatypes import MAX_NAME_LENGTH, Extracted, Limits
from .extract import extract_file, iter_file

__all__ = ["MAX_NAME_LENGTH", "Extracted", "Limits", "extract_file", "iter_file"]
