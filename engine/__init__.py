"""The engine: engine.core is plain Python and all the web process may import; the rest is the runtime (attention,
model, strategies, evaluation, bench, the commands), which only the worker and the CLI load. Never imports Django."""
