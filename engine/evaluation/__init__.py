"""Runtime: what checks the engine itself rather than a business's workload: the needle grid, the calibration of
Index Share's anchor layers, group-size sweeps and the kernels against their reference. May import engine.core,
engine.attention, engine.model and engine.strategies; only the worker and the CLI import it.
"""
