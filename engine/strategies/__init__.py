"""Runtime: the strategies a comparison runs (whole documents cached or not, chunked, retrieval, routed) and
`compare`, which runs them interleaved and measures them. May import engine.core, engine.attention, engine.model
and engine.evaluation's calibration; only the worker and the CLI import it.
"""
