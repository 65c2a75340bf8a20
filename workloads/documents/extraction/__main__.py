"""The child process that isolation.read_in_child starts to read one PDF or DOCX file: not a command for people."""

import sys

from .isolation import child_main

child_main(sys.argv[1:])
