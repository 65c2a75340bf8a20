"""The engine as a client: asks a provider's OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp, or another box's
`python -m engine serve`) over the network, so a comparison can read with a model that does not run here.

Torch-free, like engine.core: it imports only that core, the standard library and the `openai` client, and, as all
of the engine, never Django nor the web app (the import-linter contracts in pyproject.toml).
"""
