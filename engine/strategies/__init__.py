"""Runtime: the strategies a comparison runs (whole documents cached or not, chunked, retrieval, routed): `work` says
what is asked, `run_plan` plans every call with its prompt (`prompts`), and `compare` makes those calls interleaved
and measures them. May import engine.core, engine.attention, engine.model and engine.evaluation's calibration; only
the worker and the CLI import it.
"""
