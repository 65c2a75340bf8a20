"""The engine's core: what a run is (its settings, the calls it plans, the work they take, the ledger's FLOPs),
its documents and probes, the models it knows, the device profiles, and the statistics that decide.

Plain Python: it may import only itself and the standard library, never torch, transformers or triton, nor the
engine's runtime (attention, model, strategies, evaluation, bench). The web process imports the engine's core and
nothing else of it (the import-linter contracts in pyproject.toml).
"""
