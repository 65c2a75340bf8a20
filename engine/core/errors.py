"""The one error type the engine raises for bad user input."""


class EngineError(ValueError):
    """A problem with what the caller asked for, worded for the person who asked.

    The command line prints the message alone (no traceback); the web app shows it
    next to the run.
    """
