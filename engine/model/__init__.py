"""Runtime: the model, loaded, provisioned and run with the engine's attention (generate, the KV cache), and what a
call measured (device seconds, memory, library versions). May import engine.core and engine.attention.
"""
